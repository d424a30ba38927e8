package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/einvoice-dev/einvoice/compiler"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "rulegen:", err)
		os.Exit(1)
	}
}

func defaultShared() string {
	if s := os.Getenv("EINVOICE_SHARED"); s != "" {
		return s
	}
	return "../shared"
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("rulegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shared := fs.String("shared", defaultShared(), "shared directory holding rulesets/ (env EINVOICE_SHARED)")
	out := fs.String("out", "rulesets", "output directory: one package per rule set")
	dump := fs.String("dump", "", fmt.Sprintf("stop after this stage and print it to stdout; one of %v", compiler.StageNames()))
	set := fs.String("set", "", "only this rule set (package name)")
	syntax := fs.String("syntax", "", "only this syntax")
	verbose := fs.Bool("v", false, "print stage timings")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	groups := functionGroups()
	n := 0
	for _, rs := range ruleSets() {
		if (*set != "" && rs.Set != *set) || (*syntax != "" && rs.Syntax != *syntax) {
			continue
		}
		n++
		mk, ok := groups[rs.Functions]
		if !ok {
			return fmt.Errorf("%s/%s: unknown function group %q", rs.Set, rs.Syntax, rs.Functions)
		}
		fns, err := mk(*shared, rs.Main)
		if err != nil {
			return fmt.Errorf("%s/%s: functions: %w", rs.Set, rs.Syntax, err)
		}
		cfg := compiler.Config{Root: *shared, Main: rs.Main, Name: rs.Name, Version: rs.Version, Syntax: rs.Syntax,
			Phase: rs.Phase, Package: rs.Set, Func: rs.Func, Functions: fns,
			// The definitions go into the tables: a load compiles them
			// from there (xslfunc.FromTables) without parsing the .sch.
			XSLFunctions: rs.Functions == "xsl"}
		if *dump != "" {
			if _, err := compiler.Compile(ctx, cfg, *dump, stdout); err != nil {
				return err
			}
			continue
		}
		start := time.Now()
		u, err := compiler.Compile(ctx, cfg, "", nil)
		if err != nil {
			return err
		}
		key := rs.Key
		if key == "" {
			key = rs.Syntax
		}
		path := filepath.Join(*out, rs.Set, "zz_generated_"+key+".go")
		if err := writeIfChanged(path, u.Output); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "rulegen: %s (%d patterns, %d rules, %d checks) in %v\n", path,
			len(u.Tables.Patterns), len(u.Tables.Rules), len(u.Tables.Checks), time.Since(start).Round(time.Millisecond))
		if *verbose {
			for _, t := range u.Timings {
				fmt.Fprintf(stderr, "  %-9s %v\n", t.Stage, t.Duration)
			}
		}
	}
	if n == 0 {
		return errors.New("no rule set matches -set/-syntax")
	}
	return nil
}

// writeIfChanged writes data to path unless it already holds exactly data,
// so unchanged tables do not trigger rebuilds.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
