// Package fifowait helps tests that hand a named pipe to code that must refuse
// it: they wait for that code with a bound, and unblock it when it waits on
// the pipe instead, so a regression fails the test rather than hanging it.
package fifowait
