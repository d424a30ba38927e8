package ops_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// TestPDFOutputsUseConfiguredICC: render/pdf, the printable validation
// report and generate/facturx all embed the output intent the operator
// configured (--icc-profile), not the default one; a configured profile that
// cannot be read makes PDF/A output unavailable (501), never a PDF without
// its output intent.
func TestPDFOutputsUseConfiguredICC(t *testing.T) {
	const alt = "/usr/share/color/icc/ghostscript/srgb.icc" // icc-profiles-free's other sRGB profile
	want, err := pdfa.ReadICCProfile(alt)
	if err != nil {
		t.Fatalf("the test needs %s (icc-profiles-free): %v", alt, err)
	}
	def, err := pdfa.ReadICCProfile("")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(want, def) {
		t.Fatal("the alternative profile equals the default one; the test would prove nothing")
	}
	prof := filepath.Join(t.TempDir(), "operator.icc")
	if err := os.WriteFile(prof, want, 0o644); err != nil {
		t.Fatal(err)
	}
	base := engineService(t)
	s := *base
	s.ICCProfile = prof
	ctx := context.Background()
	ubl := readShared(t, "corpus/en16931/ubl/examples/ubl-tc434-example1.xml")
	outputs := map[string]func(s *ops.Service) ([]byte, error){
		"render/pdf": func(s *ops.Service) ([]byte, error) {
			return s.RenderPDF(ctx, ops.RenderRequest{Body: ubl, Style: "kosit"})
		},
		"validate/ubl/report": func(s *ops.Service) ([]byte, error) {
			pdf, _, err := s.ValidateReportPDF(ctx, ops.ValidateRequest{Syntax: ops.SyntaxUBL, Profile: "en16931", Body: ubl})
			return pdf, err
		},
		"ubl-to-facturx": func(s *ops.Service) ([]byte, error) {
			r, err := s.ConvertToFacturX(ctx, ops.ConvertRequest{Direction: "ubl-to-facturx", Body: ubl})
			if err != nil {
				return nil, err
			}
			return r.PDF, nil
		},
	}
	for name, out := range outputs {
		pdf, err := out(&s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Contains(pdf, want) || bytes.Contains(pdf, def) {
			t.Errorf("%s: the output intent is not the configured profile", name)
		}
		bad := *base
		bad.ICCProfile = filepath.Join(t.TempDir(), "missing.icc")
		_, err = out(&bad)
		var ni *ops.NotImplementedError
		if !errors.As(err, &ni) {
			t.Errorf("%s with a missing profile: %v, want a NotImplementedError", name, err)
		}
	}
}
