// Package leftover finds the processes a test run left behind, so tests can
// prove that a browser and every helper it forked are gone.
//
// A test gives each run a marker that nothing else on the machine holds: a
// fresh temporary folder, passed to the run through TMPDIR or a flag. Every
// process of the run carries it, in its arguments or in the environment it
// inherited, however it was started and whoever its parent became (crash
// handlers re-parented to init included). Processes reports each one still
// alive. Family and ListeningTCP tell which TCP ports a process and its
// descendants listen on, so a test can prove a browser opened none. It reads /proc, so it works on Linux only; elsewhere it says so
// with an error rather than report none.
package leftover
