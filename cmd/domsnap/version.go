package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version prints the module's version, Go's, every dependency's as built,
// and the browser's when one is found.
func (c *cli) version(args []string) int {
	if len(args) > 0 {
		return c.usage("version takes no arguments")
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(c.stdout, "domsnap (no build information)")
		return exitOK
	}
	fmt.Fprintf(c.stdout, "%s %s\n", bi.Main.Path, orDevel(bi.Main.Version))
	fmt.Fprintf(c.stdout, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			fmt.Fprintf(c.stdout, "%s %s\n", s.Key, s.Value)
		}
	}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v += " => " + d.Replace.Path + " " + d.Replace.Version
		}
		fmt.Fprintf(c.stdout, "dep %s %s\n", d.Path, v)
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
