package conformance

import "testing"

// TestUnitTestsPeppol runs the official Peppol BIS Billing 3.0.19 unit tests
// with the two reference stages (CEN-EN16931-* then PEPPOL-EN16931-*).
func TestUnitTestsPeppol(t *testing.T) {
	h := newHarness(t)
	base := "corpus/peppol-bis-billing/3.0.19"
	var folders []unitFolder
	for _, d := range []string{"PEPPOL", "DE", "DK", "GR", "IT", "NL", "NO", "SE"} {
		folders = append(folders, unitFolder{"unit-UBL-" + d, "peppol-ubl"})
	}
	for _, d := range []string{"PEPPOL", "DK", "IT", "NL", "NO", "SE"} {
		folders = append(folders, unitFolder{"unit-CII-" + d, "peppol-cii"})
	}
	runUnitFolders(t, h, base, folders)
	h.checkStale(t, "peppol-ubl:"+base)
	h.checkStale(t, "peppol-cii:"+base)
}
