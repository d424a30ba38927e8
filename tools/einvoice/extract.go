package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdExtract reads a PDF with the functions behind POST /v1/extract/xml,
// /v1/extract/attachments and /v1/pdfa/consistency (ops.ExtractXML,
// ops.ExtractAttachments, ops.Consistency): by default the embedded invoice
// XML byte for byte (its file name and flavour on stderr); --attachments
// the JSON list of every embedded file and BG-24 document;
// --consistency the JSON comparison of the XML with the page text (exit 1
// when inconsistent). Exit 0: written; 1: refused (no XML, encrypted,
// unreadable) or inconsistent; 2: usage.
func cmdExtract(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("extract", "einvoice extract [--attachments [--include-content] | --consistency] [-o OUT] FILE.pdf", getenv)
	atts := f.fs.Bool("attachments", false, "list every embedded file (PDF and BG-24) as JSON instead of writing the invoice XML")
	content := f.fs.Bool("include-content", false, "with --attachments: include each file's content as content_base64")
	cons := f.fs.Bool("consistency", false, "compare the embedded XML's id, date, currency and amount with the page text (JSON; exit 1 when inconsistent)")
	out := f.String("o", "", "", "output file (default: stdout)")
	file, err := f.parseOne(args, stdout, "FILE.pdf")
	if err != nil {
		return err
	}
	switch {
	case *atts && *cons:
		return usagef("extract: --attachments and --consistency exclude each other")
	case *content && !*atts:
		return usagef("extract: --include-content needs --attachments")
	}
	pdf, err := readInput("extract", file)
	if err != nil {
		return err
	}
	svc := &ops.Service{}
	switch {
	case *atts:
		res, err := svc.ExtractAttachments(ctx, pdf, *content)
		if err != nil {
			return refusal(stderr, "extract", err)
		}
		return writeJSONOut(stdout, *out, res)
	case *cons:
		res, err := svc.Consistency(ctx, pdf)
		if err != nil {
			return refusal(stderr, "extract", err)
		}
		if err := writeJSONOut(stdout, *out, res); err != nil {
			return err
		}
		if !res.Consistent {
			for _, it := range res.Items {
				if !it.Found {
					fmt.Fprintf(stderr, "einvoice: extract: %s %q: %s\n", it.Name, it.XMLValue, it.Note)
				}
			}
			return &exitError{code: exitFailure}
		}
		return nil
	}
	x, err := svc.ExtractXML(ctx, pdf)
	if err != nil {
		return refusal(stderr, "extract", err)
	}
	fmt.Fprintf(stderr, "einvoice: extract: %s (%s %s %s)\n", x.FileName, x.Flavour, x.Version, x.Profile)
	return writeOut(stdout, *out, x.XML)
}

func writeJSONOut(stdout io.Writer, out string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	return writeOut(stdout, out, append(b, '\n'))
}
