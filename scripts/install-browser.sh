#!/bin/sh
# Installs what the browser tests need and only what is missing: Debian's
# chromium, Node.js with npm for the capture programs of examples/capture,
# xvfb and xdotool, with which the profile tests show a sign-in window on
# a virtual display and type into it as a person would, python3-django,
# the real admin interface the page view is tested on (run on Debian's own
# python3, which is where the package puts Django), and haproxy, the proxy
# of the hosted recipe (examples/hosted), whose test runs it.
# `make install-browser` runs it.
#
# Each command is checked on its own because a machine may already carry some
# of them from elsewhere: Node.js from another packager bundles npm, and
# asking apt for Debian's npm beside it stops with "nodejs : Conflicts: npm"
# before anything is installed. So a present command is never asked for, and
# apt is not touched at all (not even its index) when nothing is missing.
set -eu

missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
command -v xdotool >/dev/null 2>&1 || missing="$missing xdotool"
/usr/bin/python3 -c 'import django' >/dev/null 2>&1 || missing="$missing python3-django"
command -v haproxy >/dev/null 2>&1 || missing="$missing haproxy"

if [ -z "$missing" ]; then
	echo "install-browser: chromium, node, npm, Xvfb, xdotool, Django and haproxy present: $(chromium --version 2>/dev/null || echo chromium); node $(node --version 2>/dev/null || echo '?')"
	exit 0
fi

echo "install-browser: installing$missing"
apt-get update
# $missing is a list of package names built above, split on purpose.
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
