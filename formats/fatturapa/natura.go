package fatturapa

import "github.com/einvoice-dev/einvoice/formats/model"

// naturaCodes are the Natura codes in force since 2021 (the XSD still lists
// the retired N2, N3 and N6 without sub-code; they are refused).
var naturaCodes = []string{
	"N1", "N2.1", "N2.2", "N3.1", "N3.2", "N3.3", "N3.4", "N3.5", "N3.6",
	"N4", "N5", "N6.1", "N6.2", "N6.3", "N6.4", "N6.5", "N6.6", "N6.7", "N6.8", "N6.9", "N7",
}

// NaturaFor returns the default Natura of a zero-rate line of VAT category
// code c, and false when the category has none (S, Z, L, M, B: the caller
// must give extras.natura for that line):
//
//	E  EXEMPT          -> N4   (esenti, art. 10 DPR 633/72)
//	K  INTRA_COMMUNITY -> N3.2 (non imponibili - cessioni intracomunitarie)
//	G  EXPORT          -> N3.1 (non imponibili - esportazioni)
//	AE REVERSE_CHARGE  -> N6.9 (inversione contabile - altri casi)
//	O  OUT_OF_SCOPE    -> N2.2 (non soggette - altri casi)
func NaturaFor(c model.VATCategoryCode) (string, bool) {
	switch c {
	case model.VATExempt:
		return "N4", true
	case model.VATIntraCommunity:
		return "N3.2", true
	case model.VATExport:
		return "N3.1", true
	case model.VATReverseCharge:
		return "N6.9", true
	case model.VATOutOfScope:
		return "N2.2", true
	}
	return "", false
}
