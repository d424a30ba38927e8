package main

import (
	"context"
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// cmdFacturX writes a Factur-X PDF/A-3b with ops.GenerateFacturX (the
// function behind POST /v1/generate/facturx) from a canonical-model JSON
// file, or with --from-xml from a UBL or CII invoice through
// ops.ConvertToFacturX (POST /v1/convert/{ubl,cii}-to-facturx). Exit 0:
// written; 1: refused (each problem on stderr); 2: usage.
func cmdFacturX(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("facturx", "einvoice facturx [--from-xml] [--profile P] INVOICE.json|INVOICE.xml [-o OUT.pdf]", getenv)
	fromXML := f.fs.Bool("from-xml", false, "the file is UBL or CII XML (converted losslessly, or refused) instead of canonical-model JSON")
	profile := f.String("profile", "", "", "with --from-xml: en16931 (default, read as facturx_en16931), facturx_en16931 or facturx_extended")
	out := f.String("o", "", "", "output file (default: stdout)")
	icc := f.String("icc-profile", "EINVOICE_ICC_PROFILE", "", "sRGB ICC profile of the PDF/A output intent (default /usr/share/color/icc/sRGB.icc)")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	file, err := f.parseOne(args, stdout, "input file")
	if err != nil {
		return err
	}
	switch {
	case *profile != "" && !*fromXML:
		return usagef("facturx: --profile is only for --from-xml (JSON input is always facturx_en16931)")
	}
	data, err := readInput("facturx", file)
	if err != nil {
		return err
	}
	svc, err := serviceFor("facturx", *shared, stderr)
	if err != nil {
		return err
	}
	svc.ICCProfile = *icc
	var res *ops.FacturXResult
	if *fromXML {
		source, derr := ops.DetectSyntax(data)
		if derr != nil {
			return refusal(stderr, "facturx", derr)
		}
		res, err = svc.ConvertToFacturX(ctx, ops.ConvertRequest{Direction: source + "-to-facturx", Profile: *profile, Body: data})
	} else {
		res, err = svc.GenerateFacturX(ctx, requestBody(data))
	}
	if err != nil {
		return refusal(stderr, "facturx", err)
	}
	for _, p := range res.Ignored {
		fmt.Fprintln(stderr, "einvoice: facturx: ignored unknown property "+p)
	}
	for _, c := range res.Changes {
		fmt.Fprintf(stderr, "einvoice: facturx: changed %s %s: %q -> %q (%s)\n", c.BT, c.Location, c.From, c.To, c.Reason)
	}
	return writeOut(stdout, *out, res.PDF)
}
