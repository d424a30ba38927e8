package main

import (
	"context"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdRender renders one UBL or CII invoice (auto-detected) with
// ops.RenderHTML or ops.RenderPDF, the functions behind POST
// /v1/render/html and /v1/render/pdf. Exit 0: written; 1: refused (the
// problems on stderr); 2: usage.
func cmdRender(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("render", "einvoice render [--lang en|de] [--style compact|kosit] [--html] FILE.xml [-o OUT.pdf|OUT.html]", getenv)
	lang := f.String("lang", "", "en", "language of labels, dates and numbers: en or de")
	style := f.String("style", "", "compact", "PDF style: compact (business invoice) or kosit (full auditor view)")
	asHTML := f.fs.Bool("html", false, "write the HTML view instead of a PDF")
	out := f.String("o", "", "", "output file (default: stdout)")
	file, err := f.parseOne(args, stdout, "FILE.xml")
	if err != nil {
		return err
	}
	switch {
	case *lang != "en" && *lang != "de":
		return usagef("render: --lang %q: want en or de", *lang)
	case *style != "compact" && *style != "kosit":
		return usagef("render: --style %q: want compact or kosit", *style)
	}
	src, err := readInput("render", file)
	if err != nil {
		return err
	}
	svc := &ops.Service{}
	req := ops.RenderRequest{Lang: *lang, Style: *style, Body: src}
	var b []byte
	if *asHTML {
		b, err = svc.RenderHTML(ctx, req)
	} else {
		b, err = svc.RenderPDF(ctx, req)
	}
	if err != nil {
		return refusal(stderr, "render", err)
	}
	return writeOut(stdout, *out, b)
}
