package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdGenerate writes UBL or CII XML from a canonical-model JSON file with
// ops.Generate, the function behind POST /v1/generate/{ubl,cii}, or a
// national format / Order-X with the function behind its route (--format).
// For ubl, cii and ksef the file is the request body ({"invoice": {...}})
// or the invoice object itself; for fatturapa and facturae it is the request body
// {"invoice", "extras"}; for orderx the order. Exit 0: written; 1: refused (each
// detail entry on stderr); 2: usage.
func cmdGenerate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("generate", "einvoice generate [--format ubl|cii|fatturapa|facturae|ksef|orderx] [--syntax ubl|cii] [--profile P] [--no-validate] FILE.json [-o OUT.xml]", getenv)
	format := f.String("format", "", "", "output format: ubl, cii, ksef (canonical model), fatturapa or facturae ({invoice, extras}) or orderx (an order); default: --syntax")
	syntax := f.String("syntax", "", ops.SyntaxUBL, "ubl or cii (the same as --format ubl|cii)")
	profile := f.String("profile", "", "", "target profile of ubl/cii (default: peppol for UBL, en16931 for CII)")
	noValidate := f.fs.Bool("no-validate", false, "ubl/cii: return the document even when it has fatal findings (their number goes to stderr)")
	out := f.String("o", "", "", "output file (default: stdout)")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	file, err := f.parseOne(args, stdout, "FILE.json")
	if err != nil {
		return err
	}
	national, isNational := nationalFormats[*format]
	switch {
	case *format == "" || *format == ops.SyntaxUBL || *format == ops.SyntaxCII:
		if *format != "" {
			if given(f, "syntax") && *syntax != *format {
				return usagef("generate: --format %s contradicts --syntax %s", *format, *syntax)
			}
			*syntax = *format
		}
		if *format == "" && !given(f, "syntax") && ciiOnlyProfile(*profile) {
			*syntax = ops.SyntaxCII // --profile facturx_minimum alone means CII
		}
		if *syntax != ops.SyntaxUBL && *syntax != ops.SyntaxCII {
			return usagef("generate: --syntax %q: want ubl or cii", *syntax)
		}
	case !isNational:
		return usagef("generate: --format %q: want %s", *format, strings.Join(generateFormats(), ", "))
	case *profile != "" || *noValidate || given(f, "syntax"):
		return usagef("generate: --format %s takes no --syntax, --profile or --no-validate (its document is always gated by its schema)", *format)
	}
	data, err := readInput("generate", file)
	if err != nil {
		return err
	}
	svc, err := newService(*shared)
	if err != nil && (isNational || !*noValidate) {
		fmt.Fprintln(stderr, "einvoice: generate: "+err.Error())
		return &exitError{code: exitUsage}
	}
	if isNational {
		doc, err := national(ctx, svc, data)
		if err != nil {
			return refusal(stderr, "generate", err)
		}
		return writeOut(stdout, *out, doc)
	}
	res, err := svc.Generate(ctx, ops.GenerateRequest{Syntax: *syntax, Profile: *profile, Validate: !*noValidate, Body: requestBody(data)})
	if err != nil {
		return refusal(stderr, "generate", err)
	}
	for _, p := range res.Ignored {
		fmt.Fprintln(stderr, "einvoice: generate: ignored unknown property "+p)
	}
	if len(res.Dropped) > 0 {
		fmt.Fprintf(stderr, "einvoice: generate: profile %s cannot carry %d values of the invoice; the document does not have them:\n", cmp.Or(*profile, ops.DefaultProfile(*syntax)), len(res.Dropped))
		for _, d := range res.Dropped {
			fmt.Fprintf(stderr, "einvoice: generate: dropped %s %s\n", d.Term, d.Pointer)
		}
	}
	if res.Report != nil && *noValidate && res.Report.Counts.Fatal > 0 {
		fmt.Fprintf(stderr, "einvoice: generate: %d findings (%d fatal) for profile %s\n", len(res.Report.Findings), res.Report.Counts.Fatal, res.Report.Profile)
	}
	return writeOut(stdout, *out, res.XML)
}

// nationalFormats are the --format values served by the operation behind
// their route: the file is that route's request body.
var nationalFormats = map[string]func(ctx context.Context, svc *ops.Service, body []byte) ([]byte, error){
	"fatturapa": func(ctx context.Context, svc *ops.Service, body []byte) ([]byte, error) {
		res, err := svc.GenerateFatturaPA(ctx, body)
		if err != nil {
			return nil, err
		}
		return res.XML, nil
	},
	"facturae": func(ctx context.Context, svc *ops.Service, body []byte) ([]byte, error) {
		res, err := svc.GenerateFacturae(ctx, body)
		if err != nil {
			return nil, err
		}
		return res.XML, nil
	},
	"ksef": func(ctx context.Context, svc *ops.Service, body []byte) ([]byte, error) {
		res, err := svc.GenerateKSeF(ctx, requestBody(body))
		if err != nil {
			return nil, err
		}
		return res.XML, nil
	},
	"orderx": func(ctx context.Context, svc *ops.Service, body []byte) ([]byte, error) {
		res, err := svc.GenerateOrderX(ctx, body)
		if err != nil {
			return nil, err
		}
		return res.XML, nil
	},
}

// given reports whether flag name was set on the command line.
func given(f *cmdFlags, name string) bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// generateFormats lists the --format values.
func generateFormats() []string {
	out := []string{ops.SyntaxUBL, ops.SyntaxCII}
	for k := range nationalFormats {
		out = append(out, k)
	}
	slices.Sort(out[2:])
	return out
}

// requestBody wraps a bare invoice object as {"invoice": ...}; a file that
// already is a request body (a top-level "invoice" member) is kept.
func requestBody(data []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) == nil {
		if _, ok := top["invoice"]; ok {
			return data
		}
	}
	return append(append([]byte(`{"invoice":`), bytes.TrimSpace(data)...), '}')
}

// refusal prints the 422 entries of a refused request, one per line, and
// exits 1; other errors (engine missing, I/O) are returned as they are.
func refusal(stderr io.Writer, cmd string, err error) error {
	var re *ops.RequestError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(stderr, "einvoice: %s: refused (%d problems)\n", cmd, len(re.Fields))
	for _, fe := range re.Fields {
		line := fmt.Sprintf("  %s: %s [%s]", model.LocString(fe.Loc), fe.Msg, fe.Type)
		if id, ok := fe.Ctx["rule_id"]; ok {
			line += fmt.Sprintf(" rule %v at %v", id, fe.Ctx["location"])
		}
		fmt.Fprintln(stderr, strings.ReplaceAll(line, "\n", " "))
	}
	return &exitError{code: exitFailure}
}

// writeOut writes b to the file named out, or to stdout when out is empty.
func writeOut(stdout io.Writer, out string, b []byte) error {
	if out == "" {
		_, err := stdout.Write(b)
		return err
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}

// ciiOnlyProfile reports whether profile is a generate profile of CII only
// (the Factur-X profiles), so that --syntax may be left out for it.
func ciiOnlyProfile(profile string) bool {
	return profile != "" && !slices.Contains(strings.Split(ops.AllowedProfiles(ops.SyntaxUBL), ","), profile) &&
		slices.Contains(strings.Split(ops.AllowedProfiles(ops.SyntaxCII), ","), profile)
}
