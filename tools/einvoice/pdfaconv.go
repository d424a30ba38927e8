package main

import (
	"context"
	"fmt"
	"io"
	"mime"
	"path/filepath"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/pdf/pdfaconv"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

// fileList is a repeatable string flag (--attach A --attach B).
type fileList []string

func (l *fileList) String() string     { return strings.Join(*l, ",") }
func (l *fileList) Set(v string) error { *l = append(*l, v); return nil }

// cmdPDFAConvert converts FILE.pdf to PDF/A-3b with ops.ConvertPDFA, the
// function behind POST /v1/pdfa/convert: Ghostscript, our incremental
// update with the attachments, veraPDF's check. Exit 0: written; 1:
// refused (the input cannot be converted, or veraPDF still rejects the
// result: each reason on stderr) or no Ghostscript or veraPDF; 2: usage
// and unreadable files.
func cmdPDFAConvert(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("pdfa convert", "einvoice pdfa convert [--relationship R] [--attach FILE]... FILE.pdf [-o OUT.pdf]", getenv)
	rel := f.String("relationship", "", "Data", "AFRelationship of the attached files: Data, Source, Alternative, Supplement or Unspecified")
	var attach fileList
	f.fs.Var(&attach, "attach", "a file to embed (repeatable); its MIME type comes from its extension")
	out := f.String("o", "", "", "output file (default: stdout)")
	conv, vf := addConvertFlags(f)
	file, err := f.parseOne(args, stdout, "FILE.pdf")
	if err != nil {
		return err
	}
	pdf, err := readInput("pdfa convert", file)
	if err != nil {
		return err
	}
	var atts []pdfaconv.Attachment
	for _, a := range attach {
		data, err := readLimited(a)
		if err != nil {
			return usagef("pdfa convert: --attach %s: %v", a, err)
		}
		atts = append(atts, pdfaconv.Attachment{Name: filepath.Base(a), MIME: mimeOf(a), Data: data})
	}
	svc, closeVera, err := convertService(&ops.Service{}, conv, vf, "pdfa convert")
	if err != nil {
		return err
	}
	defer closeVera()
	res, err := svc.ConvertPDFA(ctx, ops.PDFAConvertRequest{PDF: pdf, Attachments: atts, Relationship: *rel})
	if err != nil {
		return refusal(stderr, "pdfa convert", err)
	}
	return writeOut(stdout, *out, res.PDF)
}

// cmdEmbed upgrades the caller's PDF to a Factur-X PDF/A-3b with
// ops.EmbedFacturX, the function behind POST /v1/generate/facturx/embed:
// the invoice (canonical-model JSON, bare or as {"invoice": ...}) goes
// through the generate/cii gate for facturx_en16931 and is embedded as
// factur-x.xml. Exit codes as pdfa convert.
func cmdEmbed(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("embed", "einvoice embed INVOICE.json CALLER.pdf [-o OUT.pdf]", getenv)
	out := f.String("o", "", "", "output file (default: stdout)")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	conv, vf := addConvertFlags(f)
	pos, err := f.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("embed: want INVOICE.json and CALLER.pdf, got %d arguments", len(pos))
	}
	invoice, err := readInput("embed", pos[0])
	if err != nil {
		return err
	}
	pdf, err := readInput("embed", pos[1])
	if err != nil {
		return err
	}
	base, err := serviceFor("embed", *shared, stderr)
	if err != nil {
		return err
	}
	svc, closeVera, err := convertService(base, conv, vf, "embed")
	if err != nil {
		return err
	}
	defer closeVera()
	res, err := svc.EmbedFacturX(ctx, invoice, pdf)
	if err != nil {
		return refusal(stderr, "embed", err)
	}
	for _, p := range res.Ignored {
		fmt.Fprintln(stderr, "einvoice: embed: ignored unknown property "+p)
	}
	return writeOut(stdout, *out, res.PDF)
}

// convertFlags are the Ghostscript settings of pdfa convert and embed.
type convertFlags struct {
	gs, icc *string
}

func addConvertFlags(f *cmdFlags) (*convertFlags, *veraPDFFlags) {
	c := &convertFlags{
		gs:  f.String("ghostscript", "EINVOICE_GHOSTSCRIPT", "gs", "the Ghostscript executable (Debian package ghostscript)"),
		icc: f.String("icc-profile", "EINVOICE_ICC_PROFILE", "", "sRGB ICC profile of the PDF/A output intent (default: icc-profiles-free's)"),
	}
	return c, addVeraPDFFlags(f, false)
}

// convertService adds the converter and a veraPDF client to svc; the
// returned function stops the worker.
func convertService(svc *ops.Service, c *convertFlags, vf *veraPDFFlags, cmd string) (*ops.Service, func(), error) {
	opts, err := vf.options(cmd)
	if err != nil {
		return nil, nil, err
	}
	client := verapdf.New(opts)
	svc.PDFAConverter = pdfaconv.New(pdfaconv.Config{Ghostscript: *c.gs, ICCProfile: *c.icc})
	svc.VeraPDF = client
	return svc, func() { _ = client.Close() }, nil
}

// mimeOf is the media type of a file name's extension without parameters,
// application/octet-stream when unknown.
func mimeOf(name string) string {
	if mt, _, err := mime.ParseMediaType(mime.TypeByExtension(filepath.Ext(name))); err == nil {
		return mt
	}
	return "application/octet-stream"
}
