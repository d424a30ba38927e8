package render

import (
	"testing"

	"github.com/einvoice-dev/einvoice/internal/verapdftest"
)

// checkPDFA sends pdf to the test binary's one warm veraPDF worker and
// fails unless it is PDF/A-3b compliant.
func checkPDFA(t *testing.T, name string, pdf []byte) {
	t.Helper()
	res := verapdftest.Validate(t, pdf, "3b")
	if !res.Compliant {
		t.Errorf("%s: not PDF/A-3b compliant:\n%s", name, verapdftest.Describe(res))
	}
}
