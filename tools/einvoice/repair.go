package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdRepair repairs one file with ops.Repair, the function behind POST
// /v1/repair/{ubl,cii}, and writes the same JSON as the API ({xml,
// changes, report}) or, with --xml-only, the repaired XML. Exit 0: the
// repaired document is valid for the profile; 1: it is not (or the file
// was refused); 2: usage.
func cmdRepair(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("repair", "einvoice repair [--profile P] FILE.xml [-o OUT.json | --xml-only [-o OUT.xml]]", getenv)
	profile := f.String("profile", "", "", "profile the repaired document is validated for (default: peppol for UBL, en16931 for CII)")
	xmlOnly := f.fs.Bool("xml-only", false, "write only the repaired XML")
	out := f.String("o", "", "", "output file (default: stdout)")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	file, err := f.parseOne(args, stdout, "FILE.xml")
	if err != nil {
		return err
	}
	src, err := readInput("repair", file)
	if err != nil {
		return err
	}
	syntax, err := ops.DetectSyntax(src)
	if err != nil {
		return refusal(stderr, "repair", err)
	}
	svc, err := serviceFor("repair", *shared, stderr)
	if err != nil {
		return err
	}
	res, err := svc.Repair(ctx, ops.RepairRequest{Syntax: syntax, Profile: *profile, Body: src})
	if err != nil {
		return refusal(stderr, "repair", err)
	}
	for _, c := range res.Changes {
		fmt.Fprintf(stderr, "einvoice: repair: changed %s %s: %q -> %q (%s)\n", c.BT, c.Location, c.From, c.To, c.Reason)
	}
	var b []byte
	if *xmlOnly {
		b = []byte(res.XML)
	} else if b, err = json.Marshal(res); err != nil {
		return fmt.Errorf("repair: encode: %w", err)
	}
	if err := writeOut(stdout, *out, b); err != nil {
		return fmt.Errorf("repair: %w", err)
	}
	if !res.Report.Valid {
		fmt.Fprintf(stderr, "einvoice: repair: the repaired document is still invalid for %s (%d fatal)\n", res.Report.Profile, res.Report.Counts.Fatal)
		return &exitError{code: exitFailure}
	}
	return nil
}
