package convert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/formats/cii"
	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/ubl"
)

// Syntax and CIUS names used in directions.
const (
	UBL       = "ubl"
	CII       = "cii"
	XRechnung = "xrechnung"
)

// Specification identifiers (BT-24) and the business process (BT-23) the
// XRechnung directions write.
const (
	// EN16931SpecID is BT-24 of a plain EN 16931 invoice; xrechnung-to-X
	// writes it.
	EN16931SpecID = "urn:cen.eu:en16931:2017"
	// XRechnungSpecID is BT-24 of an XRechnung 3.0 invoice; X-to-xrechnung
	// writes it unless the source already has an XRechnung identifier.
	XRechnungSpecID = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
	// XRechnungExtensionSpecID is BT-24 of an XRechnung 3.0 extension
	// invoice; X-to-xrechnung writes it instead of XRechnungSpecID for an
	// invoice with sub-invoice lines (BG-DEX-01, an extension group).
	XRechnungExtensionSpecID = XRechnungSpecID + "#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0"
	// XRechnungPrefix starts every XRechnung identifier (CIUS, extension,
	// CVD); it is how XRechnung input is recognised.
	XRechnungPrefix = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_"
	// DefaultBusinessProcess is BT-23 written for XRechnung output when the
	// source has none (XRechnung applies PEPPOL-EN16931-R001: BT-23 is
	// required).
	DefaultBusinessProcess = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0"
)

// Errors wrapped by Convert and ParseDirection. A caller maps all of them to
// a 422 (the input is well-formed XML but cannot be converted as asked),
// except context errors.
var (
	// ErrUnknownDirection: the direction is not one of Directions().
	ErrUnknownDirection = errors.New("convert: unknown direction")
	// ErrSourceSyntax: the document is not in the direction's source syntax.
	ErrSourceSyntax = errors.New("convert: document is not in the source syntax")
	// ErrNotXRechnung: an xrechnung-to-X source whose BT-24 is not an
	// XRechnung specification identifier.
	ErrNotXRechnung = errors.New("convert: source is not an XRechnung invoice")
	// ErrBadOption: an Options value that is not allowed.
	ErrBadOption = errors.New("convert: bad option")
	// ErrParse: the source is not well-formed XML or exceeds the limits
	// (the xmltree error is wrapped too).
	ErrParse = errors.New("convert: source is not acceptable XML")
)

// directions lists the supported directions in a fixed order.
var directions = [...]Direction{
	{UBL, CII}, {CII, UBL},
	{UBL, XRechnung}, {CII, XRechnung},
	{XRechnung, UBL}, {XRechnung, CII},
}

// Direction is a conversion from Source to Target, each "ubl", "cii" or
// "xrechnung".
type Direction struct{ Source, Target string }

// String returns the direction's name, "ubl-to-cii".
func (d Direction) String() string { return d.Source + "-to-" + d.Target }

// Directions returns the names of the supported directions (for the 422 that
// answers an unknown one).
func Directions() []string {
	out := make([]string, len(directions))
	for i, d := range directions {
		out[i] = d.String()
	}
	return out
}

// DirectionError is the error of ParseDirection; it wraps
// ErrUnknownDirection and lists the supported directions.
type DirectionError struct {
	Given     string
	Supported []string
}

func (e *DirectionError) Error() string {
	return fmt.Sprintf("convert: unknown direction %q; supported: %s", e.Given, strings.Join(e.Supported, ", "))
}

// Unwrap returns ErrUnknownDirection.
func (e *DirectionError) Unwrap() error { return ErrUnknownDirection }

// ParseDirection parses "ubl-to-cii" and the other names of Directions.
func ParseDirection(s string) (Direction, error) {
	for _, d := range directions {
		if d.String() == s {
			return d, nil
		}
	}
	return Direction{}, &DirectionError{Given: s, Supported: Directions()}
}

// Gate validates a converted document for its target syntax ("ubl" or
// "cii") and profile. It returns the report to hand to the client and
// whether the document passed. It is given by the caller (httpapi/ops),
// since formats may not import the validation engine.
type Gate func(ctx context.Context, syntax, profile string, xml []byte) (report any, valid bool, err error)

// Options configure Convert.
type Options struct {
	// Profile is the validation profile of the target, handed to Gate;
	// empty means "xrechnung" for XRechnung targets and "en16931" else.
	Profile string
	// Syntax is the syntax of XRechnung output, "ubl" or "cii"; empty keeps
	// the source's syntax. It must be empty for other targets.
	Syntax string
	// Gate, when set, validates the target document.
	Gate Gate
	// Indent indents the target by this string per level ("" writes one
	// line).
	Indent string
}

// Loss is one source node the conversion would not carry, or one term that
// differs after the round trip.
type Loss struct {
	// Path is the source XPath in the reference form
	// ("/Invoice[1]/InvoiceLine[1]/Item[1]/cac:Foo[1]"), or, for a
	// difference found after the round trip, "model:" and the JSON Pointer
	// of the term in the canonical model ("model:/lines/0/net_amount"), or
	// "target:" and the path of a node of the written target that its
	// reader did not carry.
	Path string `json:"path"`
	// Line is the 1-based source line (0 when Path is not a source node).
	Line int `json:"line,omitempty"`
	// BT is the business term or group ("BT-146"), "" if none.
	BT string `json:"bt,omitempty"`
	// Reason says why the node or term is lost.
	Reason string `json:"reason"`
}

// Msg is the loss as one sentence for the 422 detail ("BT-22: ...").
func (l Loss) Msg() string {
	if l.BT == "" {
		return l.Reason
	}
	return l.BT + ": " + l.Reason
}

// Change is a deliberate change the conversion applied (never a loss).
type Change struct {
	Location string `json:"location"`
	BT       string `json:"bt"`
	From     string `json:"from"`
	To       string `json:"to"`
	Reason   string `json:"reason"`
}

// Result is a successful conversion.
type Result struct {
	// XML is the target document.
	XML []byte
	// TargetSyntax is "ubl" or "cii".
	TargetSyntax string
	// Profile is the profile the target was (or is to be) validated for.
	Profile string
	// Changes lists every value changed on purpose, in order.
	Changes []Change
	// Report and Valid are Gate's answer (nil and false without a Gate).
	Report any
	Valid  bool
}

// Convert converts src in direction d. It returns the target with the list
// of applied changes, or, when anything would be lost, a nil Result and the
// losses (one per node or term); err is for inputs that cannot be converted
// at all (wrapping the Err* values of this package) and for context and gate
// failures.
func Convert(ctx context.Context, d Direction, src []byte, opts Options) (*Result, []Loss, error) {
	if _, err := ParseDirection(d.String()); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("convert %s: %w", d, err)
	}
	if opts.Syntax != "" && (d.Target != XRechnung || (opts.Syntax != UBL && opts.Syntax != CII)) {
		return nil, nil, fmt.Errorf("%w: syntax=%q (allowed only for XRechnung output: ubl, cii)", ErrBadOption, opts.Syntax)
	}
	doc, err := xmltree.Parse(src, xmltree.DefaultLimits())
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrParse, err)
	}
	srcSyntax, err := sourceSyntax(d, doc)
	if err != nil {
		return nil, nil, err
	}
	inv, losses, subLines, err := read(srcSyntax, doc, "")
	if err != nil {
		return nil, nil, fmt.Errorf("convert %s: reading source: %w", d, err)
	}
	if d.Source == XRechnung {
		if bt24 := specID(inv); !strings.HasPrefix(bt24, XRechnungPrefix) {
			return nil, nil, fmt.Errorf("%w: BT-24 is %q, which does not start with %s", ErrNotXRechnung, bt24, XRechnungPrefix)
		}
	}

	target := d.Target
	profile := opts.Profile
	if target == XRechnung {
		target = srcSyntax
		if opts.Syntax != "" {
			target = opts.Syntax
		}
		if profile == "" {
			profile = XRechnung
		}
	} else if profile == "" {
		profile = "en16931"
	}
	if target == CII {
		losses = append(losses, subLineLosses(subLines)...)
	}
	if len(losses) > 0 {
		return nil, losses, nil
	}
	changes := applyChanges(d, srcSyntax, target, inv)

	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("convert %s: %w", d, err)
	}
	out, loss, err := write(target, inv, opts.Indent)
	if err != nil {
		return nil, nil, fmt.Errorf("convert %s: writing %s: %w", d, target, err)
	}
	if loss != nil {
		return nil, []Loss{*loss}, nil
	}
	back, err := xmltree.Parse(out, xmltree.DefaultLimits())
	if err != nil {
		return nil, nil, fmt.Errorf("convert %s: the written %s does not parse: %w", d, target, err)
	}
	inv2, backLoss, _, err := read(target, back, "target:")
	if err != nil {
		return nil, nil, fmt.Errorf("convert %s: reading the written %s back: %w", d, target, err)
	}
	for i := range backLoss {
		backLoss[i].Line = 0
		backLoss[i].Reason = "written to " + target + " but not read back: " + backLoss[i].Reason
	}
	losses = append(backLoss, diffLosses(inv, inv2, target)...)
	if len(losses) > 0 {
		return nil, losses, nil
	}
	res := &Result{XML: out, TargetSyntax: target, Profile: profile, Changes: changes}
	if opts.Gate != nil {
		res.Report, res.Valid, err = opts.Gate(ctx, target, profile, out)
		if err != nil {
			return nil, nil, fmt.Errorf("convert %s: validating the %s target for profile %s: %w", d, target, profile, err)
		}
	}
	return res, nil, nil
}

// sourceSyntax checks that doc is in d's source syntax and returns it.
func sourceSyntax(d Direction, doc *xmltree.Document) (string, error) {
	isUBL, isCII := ubl.Detect(doc), cii.Detect(doc)
	switch {
	case d.Source == UBL && isUBL, d.Source == XRechnung && isUBL:
		return UBL, nil
	case d.Source == CII && isCII, d.Source == XRechnung && isCII:
		return CII, nil
	}
	root := doc.Root()
	want := map[string]string{UBL: "a UBL 2.1 Invoice or CreditNote", CII: "an rsm:CrossIndustryInvoice", XRechnung: "a UBL Invoice/CreditNote or CII CrossIndustryInvoice"}[d.Source]
	return "", fmt.Errorf("%w: %s needs %s, the root is {%s}%s", ErrSourceSyntax, d, want,
		doc.NameSpace(doc.Name(root)), doc.NameLocal(doc.Name(root)))
}

// subLineReason is the loss reason of a sub-invoice line converted to CII.
const subLineReason = "sub invoice line (XRechnung extension): CII has no nested invoice lines " +
	"(EN 16931 CII and XRechnung CII, see BR-DEX-15); written as a line it would enter the totals"

// subLineLosses names each outermost sub-invoice line of the source as a
// loss (a target without sub-lines).
func subLineLosses(nodes []ubl.Node) []Loss {
	out := make([]Loss, len(nodes))
	for i, n := range nodes {
		out[i] = Loss{Path: n.Path, Line: n.Line, BT: n.BT, Reason: subLineReason}
	}
	return out
}

// read reads doc in syntax and turns what was not consumed into losses
// (paths prefixed by prefix); subLines are the outermost sub-invoice lines
// read into the model (UBL only).
func read(syntax string, doc *xmltree.Document, prefix string) (inv *model.Invoice, losses []Loss, subLines []ubl.Node, err error) {
	var (
		nodes    []ubl.Node
		warnings []string
	)
	switch syntax {
	case UBL:
		r, err := ubl.Read(doc)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: %w", ErrSourceSyntax, err)
		}
		inv, nodes, warnings, subLines = r.Invoice, r.Unconsumed, r.Warnings, r.SubLines
	default:
		r, err := cii.Read(doc)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: %w", ErrSourceSyntax, err)
		}
		inv, nodes, warnings = r.Invoice, r.Unconsumed, r.Warnings
	}
	for _, n := range nodes {
		reason := "not carried by the " + strings.ToUpper(syntax) + " mapping of the EN 16931 model"
		for _, w := range warnings {
			if rest, ok := strings.CutPrefix(w, n.Path+" ("); ok {
				if _, msg, ok := strings.Cut(rest, "): "); ok {
					reason = msg
					break
				}
			}
		}
		losses = append(losses, Loss{Path: prefix + n.Path, Line: n.Line, BT: n.BT, Reason: reason})
	}
	return inv, losses, subLines, nil
}

// btInError finds the business term an error of a writer names first.
var btInError = regexp.MustCompile(`\b(BT|BG)-[0-9]+\b`)

// write writes inv in syntax. A model the writer cannot represent is a loss,
// not an error.
func write(syntax string, inv *model.Invoice, indent string) ([]byte, *Loss, error) {
	var buf bytes.Buffer
	var err error
	var notRepresentable bool
	switch syntax {
	case UBL:
		err = ubl.Write(&buf, inv, ubl.WriteOptions{Indent: indent})
		notRepresentable = errors.Is(err, ubl.ErrNotWritable)
	default:
		err = cii.Write(&buf, inv, cii.WriteOptions{Indent: indent})
		notRepresentable = errors.Is(err, cii.ErrNotRepresentable)
	}
	if notRepresentable {
		return nil, &Loss{Path: "model:", BT: btInError.FindString(err.Error()), Reason: "the " + strings.ToUpper(syntax) + " writer cannot carry it: " + err.Error()}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), nil, nil
}

func specID(inv *model.Invoice) string {
	if inv.ProcessControl == nil {
		return ""
	}
	return inv.ProcessControl.SpecificationID
}

// applyChanges makes the deliberate changes of direction d on inv and lists
// them. Locations are the model's JSON Pointers (the source and target paths
// differ between syntaxes).
func applyChanges(d Direction, srcSyntax, target string, inv *model.Invoice) []Change {
	pc := model.ProcessControl{}
	if inv.ProcessControl != nil {
		pc = *inv.ProcessControl
	}
	var changes []Change
	set := func(field *string, bt, to, reason string) {
		if *field == to {
			return
		}
		loc := "/process_control/specification_id"
		if bt == "BT-23" {
			loc = "/process_control/business_process"
		}
		changes = append(changes, Change{Location: loc, BT: bt, From: *field, To: to, Reason: reason})
		*field = to
	}
	switch {
	case d.Target == XRechnung:
		switch {
		case strings.HasPrefix(pc.SpecificationID, XRechnungPrefix):
		case inv.HasSubLines():
			set(&pc.SpecificationID, "BT-24", XRechnungExtensionSpecID,
				"XRechnung output with sub invoice lines (BG-DEX-01) carries the XRechnung 3.0 extension identifier")
		default:
			set(&pc.SpecificationID, "BT-24", XRechnungSpecID, "XRechnung output carries the XRechnung 3.0 specification identifier")
		}
		if pc.BusinessProcess == "" {
			set(&pc.BusinessProcess, "BT-23", DefaultBusinessProcess, "XRechnung requires a business process type (PEPPOL-EN16931-R001); the Peppol billing process is the XRechnung default")
		}
		if target != srcSyntax {
			changes = append(changes, Change{Location: "/", From: srcSyntax, To: target, Reason: "syntax option: XRechnung written in " + strings.ToUpper(target)})
		}
	case d.Source == XRechnung:
		set(&pc.SpecificationID, "BT-24", EN16931SpecID, "the target is a plain EN 16931 invoice, not XRechnung")
	default:
		if pc.SpecificationID == "" {
			set(&pc.SpecificationID, "BT-24", EN16931SpecID, "the source has no specification identifier; the EN 16931 one is written")
		}
	}
	inv.ProcessControl = &pc
	if target == CII && inv.Seller.TaxRegistrationScheme != "" {
		// Lead's decision (a): the UBL TaxScheme/ID of a non-VAT seller
		// tax registration is syntax-only in the EN 16931 UBL binding.
		changes = append(changes, Change{Location: "/seller/tax_registration_scheme", BT: "BT-32",
			From: inv.Seller.TaxRegistrationScheme, To: "FC",
			Reason: "UBL tax scheme " + inv.Seller.TaxRegistrationScheme + " has no EN 16931 meaning; CII marks BT-32 with FC"})
		inv.Seller.TaxRegistrationScheme = ""
	}
	if inv.TaxCurrencyCode != "" && inv.TaxCurrencyCode == inv.CurrencyCode {
		// Lead's decision (b): EN 16931 uses BT-6 only when it differs
		// from BT-5 (and CII's BR-53 requires them to differ).
		changes = append(changes, Change{Location: "/tax_currency_code", BT: "BT-6",
			From: inv.TaxCurrencyCode, To: "",
			Reason: "BT-6 equal to BT-5 is redundant (EN 16931 uses BT-6 only when it differs); removed"})
		inv.TaxCurrencyCode = ""
	}
	return changes
}

// diffLosses lists the terms of want that differ in got (the model read
// back from the target).
func diffLosses(want, got *model.Invoice, target string) []Loss {
	ptrs := model.Diff(want, got)
	out := make([]Loss, 0, len(ptrs))
	for _, p := range ptrs {
		bt, before := lookup(want, p)
		_, after := lookup(got, p)
		out = append(out, Loss{
			Path:   "model:" + p,
			BT:     bt,
			Reason: fmt.Sprintf("differs after writing %s and reading it back: %s became %s", strings.ToUpper(target), before, after),
		})
	}
	return out
}
