package ops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/convert"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/render"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/facturx"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// FacturXProfile is the profile generate/facturx and the X-to-facturx
// conversions write and gate the embedded CII for.
const FacturXProfile = "facturx_en16931"

// FacturXResult is a Factur-X PDF/A-3b with its embedded CII.
type FacturXResult struct {
	PDF []byte
	// XML is the embedded factur-x.xml, byte for byte.
	XML      []byte
	Level    facturx.Level
	Profile  string // the profile XML was validated for
	Ignored  []string
	Computed []string
	Changes  []convert.Change // the conversions' deliberate changes
	Report   *wire.Report     // validation report of XML
}

// GenerateFacturX turns the JSON invoice body into EN 16931 CII through
// Generate (profile facturx_en16931, gated: a fatal finding is the same
// 422 as generate/cii), lays the invoice out as PDF/A-3b pages and embeds
// the CII as factur-x.xml.
func (s *Service) GenerateFacturX(ctx context.Context, body []byte) (_ *FacturXResult, err error) {
	defer func() { wrap(&err, "ops.GenerateFacturX") }()
	if s == nil || s.Validator == nil {
		return nil, &NotImplementedError{Operation: "generate_facturx", Capability: "the rule engine (the generation gate) has not landed"}
	}
	gen, err := s.Generate(ctx, GenerateRequest{Syntax: SyntaxCII, Profile: FacturXProfile, Validate: true, Body: body})
	if err != nil {
		return nil, err
	}
	res := &FacturXResult{XML: gen.XML, Profile: FacturXProfile, Ignored: gen.Ignored, Computed: gen.Computed, Report: gen.Report}
	if err := s.facturXPDF(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// ConvertToFacturX serves ubl-to-facturx and cii-to-facturx; the profile
// is en16931 (the routes' default, read as facturx_en16931),
// facturx_en16931 or facturx_extended. UBL goes
// through Convert (ubl-to-cii, lossless or 422, gated for the profile); a
// CII source is gated as it is and embedded unchanged (nothing is lost
// because nothing is rewritten). The PDF's pages show the CII read back
// into the model.
func (s *Service) ConvertToFacturX(ctx context.Context, req ConvertRequest) (_ *FacturXResult, err error) {
	defer func() { wrap(&err, "ops.ConvertToFacturX(%s)", req.Direction) }()
	switch req.Profile {
	case "", "en16931": // the routes' default: EN 16931 in its Factur-X form
		req.Profile = FacturXProfile
	case FacturXProfile, "facturx_extended":
	default:
		return nil, profileError([]any{"query", "profile"}, req.Profile, "en16931,"+FacturXProfile+",facturx_extended")
	}
	if s == nil || s.Validator == nil {
		return nil, &NotImplementedError{Operation: "convert_" + strings.ReplaceAll(req.Direction, "-", "_"), Capability: "the rule engine (the conversion gate) has not landed"}
	}
	res := &FacturXResult{Profile: req.Profile}
	switch req.Direction {
	case "ubl-to-facturx":
		c, err := s.Convert(ctx, ConvertRequest{Direction: "ubl-to-cii", Profile: req.Profile, Body: req.Body})
		if err != nil {
			return nil, err
		}
		res.XML, res.Changes, res.Report = c.XML, c.Changes, c.Report
	case "cii-to-facturx":
		doc, err := xmltree.Parse(req.Body, xmltree.DefaultLimits())
		if err != nil {
			return nil, parseError(err)
		}
		if !cii.Detect(doc) {
			return nil, &RequestError{Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError,
				Msg: "Value error, " + convert.ErrSourceSyntax.Error() + ": want a CII CrossIndustryInvoice"}}}
		}
		rep, err := s.Validate(ctx, ValidateRequest{Syntax: SyntaxCII, Profile: req.Profile, Body: req.Body})
		if err != nil {
			return nil, err
		}
		if !rep.Valid {
			return nil, &RequestError{Fields: RuleViolations(rep, func(wire.Finding) []any { return []any{"body"} })}
		}
		res.XML, res.Report = req.Body, rep
	default:
		return nil, &RequestError{Fields: []wire.ValidationError{{
			Loc: []any{"path", "direction"}, Type: wire.TypeEnum, Input: req.Direction,
			Msg: "unknown conversion direction; supported: ubl-to-facturx, cii-to-facturx",
			Ctx: map[string]any{"expected": []string{"ubl-to-facturx", "cii-to-facturx"}},
		}}}
	}
	if err := s.facturXPDF(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// facturXPDF reads res.XML back into the model, lays it out and embeds
// res.XML; it sets res.PDF and res.Level.
func (s *Service) facturXPDF(ctx context.Context, res *FacturXResult) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	doc, err := xmltree.Parse(res.XML, xmltree.DefaultLimits())
	if err != nil {
		return fmt.Errorf("re-reading the CII: %w", err)
	}
	rd, err := cii.Read(doc)
	if err != nil {
		return fmt.Errorf("re-reading the CII: %w", err)
	}
	inv := rd.Invoice
	level := facturx.EN16931
	if inv.ProcessControl != nil {
		if l, ok := facturx.LevelFromGuideline(inv.ProcessControl.SpecificationID); ok {
			level = l
		}
	}
	icc, err := s.outputIntent()
	if err != nil {
		return err
	}
	pdf, err := iccErr(facturXPDFWith(ctx, inv, res.XML, level, icc, time.Time{}))
	if err != nil {
		return err
	}
	res.PDF, res.Level = pdf, level
	return nil
}

// FacturXPDF lays inv out in formats/render's compact view (English) and
// embeds xml as factur-x.xml at level; t is the creation date (zero = now;
// fix it for byte-identical output).
func FacturXPDF(ctx context.Context, inv *model.Invoice, xml []byte, level facturx.Level, t time.Time) ([]byte, error) {
	return facturXPDFWith(ctx, inv, xml, level, nil, t)
}

// facturXPDFWith is FacturXPDF with the output intent's profile icc (nil =
// render's default, pdfa.DefaultICCProfile).
func facturXPDFWith(ctx context.Context, inv *model.Invoice, xml []byte, level facturx.Level, icc []byte, t time.Time) ([]byte, error) {
	doc, err := render.Layout(ctx, inv, render.Options{Lang: render.English, Style: render.StyleCompact, Time: t, ICC: icc})
	if err != nil {
		return nil, fmt.Errorf("laying out the invoice: %w", err)
	}
	p := doc.PDF()
	kind := "Invoice"
	if inv.TypeCode == "381" {
		kind = "Credit note"
	}
	p.SetInfo(pdfa.Info{
		Title:    kind + " " + inv.ID,
		Author:   inv.Seller.Name,
		Subject:  fmt.Sprintf("Factur-X %s %s of %s to %s", level, inv.ID, inv.Seller.Name, inv.Buyer.Name),
		Keywords: "Factur-X, " + kind,
		Creator:  "einvoice",
	})
	if err := facturx.Embed(p, xml, level); err != nil {
		return nil, err
	}
	b, err := doc.Bytes()
	if err != nil {
		return nil, err
	}
	return b, nil
}
