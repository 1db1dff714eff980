// Package scripts holds the shell scripts the Makefile runs, and the tests
// that run them against stand-in commands. It has no Go code of its own.
//
// install-browser.sh is `make install-browser`: it asks apt for Debian's
// chromium, nodejs, npm, xvfb, xdotool and haproxy, each only when its
// command is missing, and runs
// apt-get update only when something is to be installed.
package scripts
