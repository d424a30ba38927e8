package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// Response headers of the model operations (documented in docs/API.md).
const (
	// HeaderIgnoredProperties lists the unknown request members that were
	// ignored, as comma-separated JSON Pointers ("/invoice/foo").
	HeaderIgnoredProperties = "X-Ignored-Properties"
	// HeaderComputedFields lists the values model.Complete derived, as
	// comma-separated JSON Pointers into the request ("/invoice/totals/payable_amount").
	HeaderComputedFields = "X-Computed-Fields"
	// HeaderValidationFindings is the number of findings (all flags) of the
	// generated document's validation report.
	HeaderValidationFindings = "X-Validation-Findings"
	// HeaderConversionChanges is the JSON array of the deliberate changes a
	// conversion made ([{location, bt, from, to, reason}]).
	HeaderConversionChanges = "X-Conversion-Changes"
	// HeaderProfile names the profile a generated or converted document
	// was validated for.
	HeaderProfile = "X-Profile"
)

// handleSchemaInvoice serves the JSON Schema of the canonical invoice model.
func (s *Server) handleSchemaInvoice(_ context.Context, w http.ResponseWriter, _ *input) error {
	w.Header().Set("Content-Type", mediaJSON)
	_, _ = w.Write(model.InvoiceSchema())
	return nil
}

// handleGenerate serves generate/ubl and generate/cii through ops.Generate.
func (s *Server) handleGenerate(syntax string) handlerFunc {
	return func(ctx context.Context, w http.ResponseWriter, in *input) error {
		var profile string
		var validate bool
		switch p := in.params.(type) {
		case *wire.GenerateUBLParams:
			profile, validate = p.Profile, p.Validate
		case *wire.GenerateCIIParams:
			profile, validate = p.Profile, p.Validate
		default:
			return fmt.Errorf("generate: unexpected params type %T", in.params)
		}
		res, err := s.cfg.Ops.Generate(ctx, ops.GenerateRequest{Syntax: syntax, Profile: profile, Validate: validate, Body: in.body})
		if err != nil {
			return err
		}
		h := w.Header()
		setGeneratedLists(h, res.Ignored, res.Computed)
		setDroppedTerms(h, res.Dropped)
		setReportHeaders(h, res.Report)
		writeXML(w, res.XML)
		return nil
	}
}

// handleConvert serves /v1/convert/{dir} through ops.Convert.
func (s *Server) handleConvert(dir string) handlerFunc {
	return func(ctx context.Context, w http.ResponseWriter, in *input) error {
		req, err := convertRequest(dir, in)
		if err != nil {
			return err
		}
		res, err := s.cfg.Ops.Convert(ctx, req)
		if err != nil {
			return err
		}
		return writeConverted(w, res)
	}
}

// writeConverted answers a conversion: its changes, profile and finding
// count in headers, the converted XML as the body.
func writeConverted(w http.ResponseWriter, res *ops.ConvertResult) error {
	h := w.Header()
	if err := setConversionChanges(h, res.Changes); err != nil {
		return err
	}
	h.Set(HeaderProfile, res.Profile)
	h.Set(HeaderValidationFindings, strconv.Itoa(len(res.Report.Findings)))
	writeXML(w, res.XML)
	return nil
}

// handleRepair serves repair/ubl and repair/cii through ops.Repair.
func (s *Server) handleRepair(syntax string) handlerFunc {
	return func(ctx context.Context, w http.ResponseWriter, in *input) error {
		var profile string
		switch p := in.params.(type) {
		case *wire.RepairUBLParams:
			profile = p.Profile
		case *wire.RepairCIIParams:
			profile = p.Profile
		default:
			return fmt.Errorf("repair: unexpected params type %T", in.params)
		}
		res, err := s.cfg.Ops.Repair(ctx, ops.RepairRequest{Syntax: syntax, Profile: profile, Body: in.body})
		if err != nil {
			return err
		}
		s.writeJSON(w, http.StatusOK, res)
		return nil
	}
}

// modelSchemaPrefix prefixes the component names of the canonical model's
// definitions in the OpenAPI document ("ModelInvoice", "ModelAddress", ...).
const modelSchemaPrefix = "Model"

// embedModelSchemas adds the canonical invoice model's definitions
// (model.InvoiceSchemaDefinitions) to the OpenAPI components and makes the
// invoice member of GenerateRequest refer to them.
func embedModelSchemas(components map[string]any) {
	const refPrefix = "#/components/schemas/"
	for name, def := range model.InvoiceSchemaDefinitions(refPrefix, modelSchemaPrefix) {
		components[name] = def
	}
	components["GenerateRequest"] = map[string]any{
		"type": "object", "title": "GenerateRequest", "required": []string{"invoice"},
		"properties": map[string]any{"invoice": map[string]any{
			"allOf":       []any{map[string]any{"$ref": refPrefix + modelSchemaPrefix + "Invoice"}},
			"description": "The canonical EN 16931 invoice model (also served as JSON Schema by GET /v1/schema/invoice). Unknown properties are ignored and listed in the X-Ignored-Properties response header.",
		}},
	}
}

// asciiJSON escapes every non-ASCII character of a JSON text as \uXXXX so
// that it travels safely in an HTTP header.
func asciiJSON(b []byte) string {
	var sb strings.Builder
	for _, r := range string(b) {
		switch {
		case r < 0x80:
			sb.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&sb, "\\u%04x\\u%04x", r1, r2)
		default:
			fmt.Fprintf(&sb, "\\u%04x", r)
		}
	}
	return sb.String()
}

// maxListHeader bounds a pointer-list header (X-Ignored-Properties,
// X-Computed-Fields) so that a body with thousands of unknown members
// cannot produce a header clients and proxies refuse.
const maxListHeader = 4096

// joinCapped joins pointers with commas; past maxListHeader bytes the rest
// is replaced by ",...(+N more)".
func joinCapped(ptrs []string) string {
	var sb strings.Builder
	for i, p := range ptrs {
		if sb.Len()+len(p)+1 > maxListHeader {
			fmt.Fprintf(&sb, ",...(+%d more)", len(ptrs)-i)
			break
		}
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(p)
	}
	return sb.String()
}
