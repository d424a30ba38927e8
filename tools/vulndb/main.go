package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/mod/module"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command: exit status 0 on success, 1 on failure, 2 on usage errors.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("vulndb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	osvDir := fs.String("osv", "", "directory of OSV entries <id>.json (data/osv of the golang.org/x/vulndb module)")
	version := fs.String("version", "", "the golang.org/x/vulndb pseudo-version the entries come from (its commit time is the snapshot time)")
	out := fs.String("out", "", "database directory to create (must not exist)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *osvDir == "" || *version == "" || *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: vulndb -osv DIR -version PSEUDO-VERSION -out DIR")
		return 2
	}
	snapshot, err := module.PseudoVersionTime(*version)
	if err != nil {
		fmt.Fprintf(stderr, "vulndb: -version %q: %v\n", *version, err)
		return 2
	}
	db, err := build(*osvDir, *out, snapshot)
	if err != nil {
		fmt.Fprintf(stderr, "vulndb: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "vulndb: %d entries, modified %s, in %s\n",
		len(db.entries), db.modified.Format(time.RFC3339), *out)
	return 0
}
