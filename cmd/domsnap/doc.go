// Command domsnap extracts one visible table, list or form from a page.
//
//	domsnap extract [flags] INPUT     one extraction, printed as canonical JSON or a table
//	domsnap inventory INPUT           the page's collections: which index to ask for
//	domsnap capture URL -o FILE       a live page into a saved snapshot
//	domsnap parity FILE...            offline against live analysis of HTML files
//	domsnap profile login NAME URL    a person signs in, in a window, for --profile NAME
//	domsnap version [--browser]       module and dependency versions (and the browser's)
//	domsnap help [COMMAND]            a command's usage, flags and examples
//
// Every command's help (help.go's table) prints on standard output with
// examples; a mistyped command or flag is answered with the closest known
// one, and a URL given as INPUT with a hint instead of a missing-file error.
//
// INPUT is an .html file, a saved snapshot (optionally gzip-compressed), a
// bare captureSnapshot result, or - for standard input; the format is sniffed
// from the bytes, never from the name. Flags may come before or after INPUT.
//
// # Limits
//
// INPUT is read up to 256 MiB and a --request file up to 64 KiB, counted as
// the bytes arrive; a larger one is refused (unsupported_input, "too_large")
// without being held. A directory is refused. Anything else that is not a
// regular file (a named pipe, /dev/zero) is opened without blocking, so a
// named pipe whose writer has not opened it yet reads as empty and is
// refused at once rather than waited for; standard input ("-") is read as
// it comes. A stream whose first bytes are binary data (not gzip, JSON or
// HTML) is refused as soon as they arrive. An unknown --charset label is
// invalid_request before any input is read.
//
// Exit status: 0 a result was printed (whether or not the collection was
// found), 2 a usage error or an invalid request, 3 the expected revision was
// rejected, 1 anything else. Errors are printed on standard error as
// "<code>: <path>: <message>", the path present when one helps.
//
// # Live commands
//
// capture, extract --live and parity start a headless Chromium of their own.
// --timeout (default 30s, at most 5m) bounds the whole operation, browser
// launch included; when it passes the command fails with the timeout code.
// Ctrl-C, SIGTERM and SIGHUP cancel the operation the same way and the
// command exits with the cancelled code. Either way the browser, every
// process it forked and its temporary profile are gone before the command
// exits; on Linux the browser also dies with the command if the command is
// killed outright. JavaScript dialogs a page opens are dismissed, and every
// page sees the same 1280x800 reference screen.
//
// # Security
//
// The command prints page content only inside results, and in the table
// format it quotes every string so control characters and bidirectional
// overrides from a page cannot drive the terminal. The CSV format prints
// values as they are, for spreadsheets and scripts: like the JSON, it is
// page content and should be treated as untrusted. It never prints a form
// control's value: such values never enter the tree it analyzes.
package main
