package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdGenerate writes UBL or CII XML from a canonical-model JSON file with
// ops.Generate, the function behind POST /v1/generate/{ubl,cii}. The file is
// the request body ({"invoice": {...}}) or the invoice object itself. Exit
// 0: written; 1: refused (each detail entry on stderr); 2: usage.
func cmdGenerate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("generate", "einvoice generate --syntax ubl|cii [--profile P] [--no-validate] INVOICE.json [-o OUT.xml]", getenv)
	syntax := f.String("syntax", "", ops.SyntaxUBL, "ubl or cii")
	profile := f.String("profile", "", "", "target profile (default: peppol for UBL, en16931 for CII)")
	noValidate := f.fs.Bool("no-validate", false, "return the document even when it has fatal findings (their number goes to stderr)")
	out := f.String("o", "", "", "output file (default: stdout)")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	pos, err := f.parse(args, stdout)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 1:
		return usagef("generate: want exactly one INVOICE.json, got %d arguments", len(pos))
	case *syntax != ops.SyntaxUBL && *syntax != ops.SyntaxCII:
		return usagef("generate: --syntax %q: want ubl or cii", *syntax)
	}
	data, err := readLimited(pos[0])
	if err != nil {
		return usagef("generate: %s: %v", pos[0], err)
	}
	svc, err := newService(*shared)
	if err != nil && !*noValidate {
		fmt.Fprintln(stderr, "einvoice: generate: "+err.Error())
		return &exitError{code: exitUsage}
	}
	res, err := svc.Generate(ctx, ops.GenerateRequest{Syntax: *syntax, Profile: *profile, Validate: !*noValidate, Body: requestBody(data)})
	if err != nil {
		return refusal(stderr, "generate", err)
	}
	for _, p := range res.Ignored {
		fmt.Fprintln(stderr, "einvoice: generate: ignored unknown property "+p)
	}
	if res.Report != nil && *noValidate && res.Report.Counts.Fatal > 0 {
		fmt.Fprintf(stderr, "einvoice: generate: %d findings (%d fatal) for profile %s\n", len(res.Report.Findings), res.Report.Counts.Fatal, res.Report.Profile)
	}
	return writeOut(stdout, *out, res.XML)
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
