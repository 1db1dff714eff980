package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version prints the module's version, Go's and every dependency's as
// built, at once; with --browser it also starts Chromium to ask its version.
func (c *cli) version(args []string) int {
	fs := c.flagSet("version", "")
	withBrowser := fs.Bool("browser", false, "also start Chromium and print its version (takes seconds)")
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) > 0 {
		return c.usage("version takes no arguments")
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		writeBuildInfo(c.stdout, bi)
	} else {
		fmt.Fprintln(c.stdout, "domsnap (no build information)")
	}
	if !*withBrowser {
		return exitOK
	}
	if b, ok := browserVersion(c); ok {
		fmt.Fprintf(c.stdout, "browser %s\n", b)
	} else {
		fmt.Fprintln(c.stdout, "browser not found")
	}
	return exitOK
}

func orDevel(v string) string {
	if v == "" {
		return "(devel)"
	}
	return v
}

// writeBuildInfo prints the main module's version, Go's, the VCS state the
// binary was built from, and every dependency's version.
func writeBuildInfo(w io.Writer, bi *debug.BuildInfo) {
	fmt.Fprintf(w, "%s %s\n", bi.Main.Path, orDevel(bi.Main.Version))
	fmt.Fprintf(w, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			fmt.Fprintf(w, "%s %s\n", s.Key, s.Value)
		}
	}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v += " => " + d.Replace.Path + " " + d.Replace.Version
		}
		fmt.Fprintf(w, "dep %s %s\n", d.Path, v)
	}
}
