package main

import (
	"context"
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdConvert converts one file with ops.Convert, the function behind POST
// /v1/convert/{source}-to-{target}: the source syntax is detected (or given
// with --from, e.g. xrechnung), the target is validated for --profile (en16931,
// xrechnung for XRechnung targets) and every deliberate change is printed on
// stderr. Exit 0: written; 1: refused (losses or rule violations on
// stderr); 2: usage.
func cmdConvert(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("convert", "einvoice convert --to cii|ubl|xrechnung [--from ubl|cii|xrechnung] [--profile P] [--syntax ubl|cii] FILE.xml [-o OUT.xml]", getenv)
	to := f.String("to", "", "", "target: cii, ubl or xrechnung")
	from := f.String("from", "", "", "source: ubl, cii or xrechnung (default: detected from the root element)")
	profile := f.String("profile", "", "", "profile the target is validated for (default en16931; xrechnung for --to xrechnung)")
	syntax := f.String("syntax", "", "", "syntax of XRechnung output: ubl or cii (default: the source's)")
	out := f.String("o", "", "", "output file (default: stdout)")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	file, err := f.parseOne(args, stdout, "FILE.xml")
	if err != nil {
		return err
	}
	switch {
	case *to != "ubl" && *to != "cii" && *to != "xrechnung":
		return usagef("convert: --to %q: want cii, ubl or xrechnung", *to)
	case *from != "" && *from != "ubl" && *from != "cii" && *from != "xrechnung":
		return usagef("convert: --from %q: want ubl, cii or xrechnung", *from)
	case *syntax != "" && *to != "xrechnung":
		return usagef("convert: --syntax is only for --to xrechnung")
	}
	src, err := readInput("convert", file)
	if err != nil {
		return err
	}
	source := *from
	if source == "" {
		if source, err = ops.DetectSyntax(src); err != nil {
			return refusal(stderr, "convert", err)
		}
	}
	if source == *to {
		return usagef("convert: the file is already %s (use --from xrechnung for XRechnung input)", source)
	}
	svc, err := serviceFor("convert", *shared, stderr)
	if err != nil {
		return err
	}
	res, err := svc.Convert(ctx, ops.ConvertRequest{Direction: source + "-to-" + *to, Profile: *profile, Syntax: *syntax, Body: src})
	if err != nil {
		return refusal(stderr, "convert", err)
	}
	for _, c := range res.Changes {
		fmt.Fprintf(stderr, "einvoice: convert: changed %s %s: %q -> %q (%s)\n", c.BT, c.Location, c.From, c.To, c.Reason)
	}
	return writeOut(stdout, *out, res.XML)
}
