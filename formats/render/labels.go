package render

// Lang is a language of the labels and of the number and date formats.
type Lang string

// The supported languages.
const (
	English Lang = "en"
	German  Lang = "de"
)

// ParseLang returns the language named by s ("en" or "de"); ok is false for
// anything else.
func ParseLang(s string) (Lang, bool) {
	switch Lang(s) {
	case English, German:
		return Lang(s), true
	}
	return "", false
}

// label is one entry of the translation table: English and German.
type label struct{ en, de string }

// text returns the label in lang; the key itself when the table has no
// entry (a missing label is visible, never a crash).
func text(lang Lang, key string) string {
	l, ok := labels[key]
	if !ok {
		return key
	}
	if lang == German {
		return l.de
	}
	return l.en
}

// labels is the one translation table: business terms (BT/BG ids, their
// EN 16931 names in English and the names of the German XRechnung
// visualization in German), section and column titles, and the few words
// the views add. It is read-only.
var labels = map[string]label{
	// Sections and views.
	"doc.invoice":        {"Invoice", "Rechnung"},
	"doc.creditnote":     {"Credit note", "Gutschrift"},
	"nav":                {"Sections", "Abschnitte"},
	"sec.overview":       {"Overview", "Übersicht"},
	"sec.details":        {"Details", "Details"},
	"sec.additional":     {"Additional data", "Zusätze"},
	"sec.attachments":    {"Attachments", "Anlagen"},
	"blk.invoicedata":    {"Invoice data", "Rechnungsdaten"},
	"blk.references":     {"References", "Referenzen"},
	"blk.lines":          {"Invoice lines", "Rechnungspositionen"},
	"blk.line":           {"Invoice line", "Rechnungsposition"},
	"blk.selleradd":      {"Seller: further data", "Verkäufer: weitere Angaben"},
	"blk.buyeradd":       {"Buyer: further data", "Käufer: weitere Angaben"},
	"blk.syntax":         {"Syntax details (no business term)", "Syntaxangaben (kein Geschäftsbegriff)"},
	"blk.classification": {"Item classification", "Artikelklassifizierung"},
	"col.size":           {"Size", "Größe"},
	"col.bytes":          {"bytes", "Bytes"},
	"col.currency":       {"Currency", "Währung"},
	"page":               {"Page", "Seite"},
	"of":                 {"of", "von"},
	"yes":                {"yes", "ja"},
	"line":               {"line", "Zeile"},
	"compact.to":         {"Invoice to", "Rechnung an"},
	"compact.from":       {"From", "Von"},
	"compact.vat":        {"VAT summary", "Umsatzsteuer"},
	"compact.payment":    {"Payment details", "Zahlungsangaben"},
	"compact.more":       {"Further details", "Weitere Angaben"},
	"compact.line":       {"Line", "Pos."},
	"compact.desc":       {"Description", "Bezeichnung"},
	"compact.qty":        {"Quantity", "Menge"},
	"compact.price":      {"Unit price", "Einzelpreis"},
	"compact.vatrate":    {"VAT %", "USt. %"},
	"compact.net":        {"Net amount", "Nettobetrag"},

	// Not business terms, but values the model carries (see model.Invoice).
	"x.projectname":      {"Project name", "Projektname"},
	"x.taxregscheme":     {"Tax scheme of the seller tax registration identifier", "Steuerschema der Steuernummer des Verkäufers"},
	"x.department":       {"Contact point is a department", "Kontaktstelle ist eine Abteilung"},
	"x.proprietary":      {"Account identifier is proprietary (not an IBAN)", "Kontokennung ist proprietär (keine IBAN)"},
	"x.networkid":        {"Card network", "Kartennetzwerk"},
	"x.grossbaseqty":     {"Base quantity of the gross price", "Basismenge des Bruttopreises"},
	"x.grossbaseqtyunit": {"Unit of the base quantity of the gross price", "Einheit der Basismenge des Bruttopreises"},

	// Groups.
	"BG-1":  {"Invoice note", "Bemerkung zur Rechnung"},
	"BG-2":  {"Process control", "Prozesssteuerung"},
	"BG-3":  {"Preceding invoice reference", "Vorausgegangene Rechnungen"},
	"BG-4":  {"Seller", "Verkäufer"},
	"BG-5":  {"Seller postal address", "Anschrift des Verkäufers"},
	"BG-6":  {"Seller contact", "Kontaktinformationen des Verkäufers"},
	"BG-7":  {"Buyer", "Käufer"},
	"BG-8":  {"Buyer postal address", "Anschrift des Käufers"},
	"BG-9":  {"Buyer contact", "Kontaktinformationen des Käufers"},
	"BG-10": {"Payee", "Zahlungsempfänger"},
	"BG-11": {"Seller tax representative party", "Steuervertreter des Verkäufers"},
	"BG-12": {"Seller tax representative postal address", "Anschrift des Steuervertreters"},
	"BG-13": {"Delivery information", "Lieferinformationen"},
	"BG-14": {"Invoicing period", "Abrechnungszeitraum"},
	"BG-15": {"Deliver to address", "Lieferanschrift"},
	"BG-16": {"Payment instructions", "Zahlungsinformationen"},
	"BG-17": {"Credit transfer", "Überweisung"},
	"BG-18": {"Payment card information", "Karteninformation"},
	"BG-19": {"Direct debit", "Lastschrift"},
	"BG-20": {"Document level allowances", "Nachlässe auf Dokumentenebene"},
	"BG-21": {"Document level charges", "Zuschläge auf Dokumentenebene"},
	"BG-22": {"Document totals", "Gesamtbeträge der Rechnung"},
	"BG-23": {"VAT breakdown", "Aufschlüsselung der Umsatzsteuer"},
	"BG-24": {"Additional supporting documents", "Rechnungsbegründende Unterlagen"},
	"BG-25": {"Invoice line", "Rechnungsposition"},
	"BG-26": {"Invoice line period", "Abrechnungszeitraum der Position"},
	"BG-27": {"Invoice line allowances", "Nachlässe auf Ebene der Rechnungsposition"},
	"BG-28": {"Invoice line charges", "Zuschläge auf Ebene der Rechnungsposition"},
	"BG-29": {"Price details", "Preiseinzelheiten"},
	"BG-30": {"Line VAT information", "Umsatzsteuerinformationen der Position"},
	"BG-31": {"Item information", "Artikelinformationen"},
	"BG-32": {"Item attributes", "Eigenschaften des Artikels"},

	// Business terms.
	"BT-1":     {"Invoice number", "Rechnungsnummer"},
	"BT-2":     {"Invoice issue date", "Rechnungsdatum"},
	"BT-3":     {"Invoice type code", "Rechnungsart"},
	"BT-5":     {"Invoice currency code", "Währung"},
	"BT-6":     {"VAT accounting currency code", "Währung für die Umsatzsteuerbuchung"},
	"BT-7":     {"Value added tax point date", "Abrechnungsdatum der Umsatzsteuer"},
	"BT-8":     {"Value added tax point date code", "Code für das Umsatzsteuer-Abrechnungsdatum"},
	"BT-9":     {"Payment due date", "Fälligkeitsdatum"},
	"BT-10":    {"Buyer reference", "Leitweg-ID / Käuferreferenz"},
	"BT-11":    {"Project reference", "Projektnummer"},
	"BT-12":    {"Contract reference", "Vertragsnummer"},
	"BT-13":    {"Purchase order reference", "Bestellnummer"},
	"BT-14":    {"Sales order reference", "Auftragsnummer"},
	"BT-15":    {"Receiving advice reference", "Kennung der Empfangsbestätigung"},
	"BT-16":    {"Despatch advice reference", "Kennung der Versandanzeige"},
	"BT-17":    {"Tender or lot reference", "Vergabenummer"},
	"BT-18":    {"Invoiced object identifier", "Objektkennung"},
	"BT-18-1":  {"Invoiced object identifier scheme", "Schema der Objektkennung"},
	"BT-19":    {"Buyer accounting reference", "Buchungsreferenz"},
	"BT-20":    {"Payment terms", "Zahlungsbedingungen"},
	"BT-21":    {"Invoice note subject code", "Betreff der Bemerkung"},
	"BT-22":    {"Invoice note", "Bemerkung"},
	"BT-23":    {"Business process type", "Prozesskennung"},
	"BT-24":    {"Specification identifier", "Spezifikationskennung"},
	"BT-25":    {"Preceding invoice reference", "Nummer der vorausgegangenen Rechnung"},
	"BT-26":    {"Preceding invoice issue date", "Datum der vorausgegangenen Rechnung"},
	"BT-27":    {"Seller name", "Firmenname"},
	"BT-28":    {"Seller trading name", "Handelsname"},
	"BT-29":    {"Seller identifier", "Kennung des Verkäufers"},
	"BT-29-1":  {"Seller identifier scheme", "Schema der Kennung"},
	"BT-30":    {"Seller legal registration identifier", "Registernummer"},
	"BT-30-1":  {"Seller legal registration identifier scheme", "Schema der Registernummer"},
	"BT-31":    {"Seller VAT identifier", "Umsatzsteuer-ID"},
	"BT-32":    {"Seller tax registration identifier", "Steuernummer"},
	"BT-33":    {"Seller additional legal information", "Weitere rechtliche Informationen"},
	"BT-34":    {"Seller electronic address", "Elektronische Adresse"},
	"BT-34-1":  {"Seller electronic address scheme", "Schema der elektronischen Adresse"},
	"BT-35":    {"Seller address line 1", "Straße / Hausnummer"},
	"BT-36":    {"Seller address line 2", "Adresszeile 2"},
	"BT-162":   {"Seller address line 3", "Adresszeile 3"},
	"BT-37":    {"Seller city", "Ort"},
	"BT-38":    {"Seller post code", "PLZ"},
	"BT-39":    {"Seller country subdivision", "Bundesland"},
	"BT-40":    {"Seller country code", "Ländercode"},
	"BT-41":    {"Seller contact point", "Name"},
	"BT-42":    {"Seller contact telephone number", "Telefon"},
	"BT-43":    {"Seller contact email address", "E-Mail-Adresse"},
	"BT-44":    {"Buyer name", "Firmenname"},
	"BT-45":    {"Buyer trading name", "Handelsname"},
	"BT-46":    {"Buyer identifier", "Kennung des Käufers"},
	"BT-46-1":  {"Buyer identifier scheme", "Schema der Kennung"},
	"BT-47":    {"Buyer legal registration identifier", "Registernummer"},
	"BT-47-1":  {"Buyer legal registration identifier scheme", "Schema der Registernummer"},
	"BT-48":    {"Buyer VAT identifier", "Umsatzsteuer-ID"},
	"BT-49":    {"Buyer electronic address", "Elektronische Adresse"},
	"BT-49-1":  {"Buyer electronic address scheme", "Schema der elektronischen Adresse"},
	"BT-50":    {"Buyer address line 1", "Straße / Hausnummer"},
	"BT-51":    {"Buyer address line 2", "Adresszeile 2"},
	"BT-163":   {"Buyer address line 3", "Adresszeile 3"},
	"BT-52":    {"Buyer city", "Ort"},
	"BT-53":    {"Buyer post code", "PLZ"},
	"BT-54":    {"Buyer country subdivision", "Bundesland"},
	"BT-55":    {"Buyer country code", "Ländercode"},
	"BT-56":    {"Buyer contact point", "Name"},
	"BT-57":    {"Buyer contact telephone number", "Telefon"},
	"BT-58":    {"Buyer contact email address", "E-Mail-Adresse"},
	"BT-59":    {"Payee name", "Name"},
	"BT-60":    {"Payee identifier", "Kennung"},
	"BT-60-1":  {"Payee identifier scheme", "Schema der Kennung"},
	"BT-61":    {"Payee legal registration identifier", "Registernummer"},
	"BT-61-1":  {"Payee legal registration identifier scheme", "Schema der Registernummer"},
	"BT-62":    {"Seller tax representative name", "Name"},
	"BT-63":    {"Seller tax representative VAT identifier", "Umsatzsteuer-ID"},
	"BT-64":    {"Tax representative address line 1", "Straße / Hausnummer"},
	"BT-65":    {"Tax representative address line 2", "Adresszeile 2"},
	"BT-164":   {"Tax representative address line 3", "Adresszeile 3"},
	"BT-66":    {"Tax representative city", "Ort"},
	"BT-67":    {"Tax representative post code", "PLZ"},
	"BT-68":    {"Tax representative country subdivision", "Bundesland"},
	"BT-69":    {"Tax representative country code", "Ländercode"},
	"BT-70":    {"Deliver to party name", "Name des Empfängers"},
	"BT-71":    {"Deliver to location identifier", "Kennung des Lieferorts"},
	"BT-71-1":  {"Deliver to location identifier scheme", "Schema der Kennung des Lieferorts"},
	"BT-72":    {"Actual delivery date", "Lieferdatum"},
	"BT-73":    {"Invoicing period start date", "Beginn des Abrechnungszeitraums"},
	"BT-74":    {"Invoicing period end date", "Ende des Abrechnungszeitraums"},
	"BT-75":    {"Deliver to address line 1", "Straße / Hausnummer"},
	"BT-76":    {"Deliver to address line 2", "Adresszeile 2"},
	"BT-165":   {"Deliver to address line 3", "Adresszeile 3"},
	"BT-77":    {"Deliver to city", "Ort"},
	"BT-78":    {"Deliver to post code", "PLZ"},
	"BT-79":    {"Deliver to country subdivision", "Bundesland"},
	"BT-80":    {"Deliver to country code", "Ländercode"},
	"BT-81":    {"Payment means type code", "Code für das Zahlungsmittel"},
	"BT-82":    {"Payment means text", "Zahlungsmittel"},
	"BT-83":    {"Remittance information", "Verwendungszweck"},
	"BT-84":    {"Payment account identifier", "Kennung des Zahlungskontos (IBAN)"},
	"BT-85":    {"Payment account name", "Name des Zahlungskontos"},
	"BT-86":    {"Payment service provider identifier", "Kennung des Zahlungsdienstleisters (BIC)"},
	"BT-87":    {"Payment card primary account number", "Kartennummer"},
	"BT-88":    {"Payment card holder name", "Name des Karteninhabers"},
	"BT-89":    {"Mandate reference identifier", "Mandatsreferenz"},
	"BT-90":    {"Bank assigned creditor identifier", "Gläubiger-ID"},
	"BT-91":    {"Debited account identifier", "IBAN des belasteten Kontos"},
	"BT-92":    {"Document level allowance amount", "Betrag des Nachlasses"},
	"BT-93":    {"Document level allowance base amount", "Grundbetrag"},
	"BT-94":    {"Document level allowance percentage", "Prozentsatz"},
	"BT-95":    {"Document level allowance VAT category code", "Umsatzsteuerkategorie"},
	"BT-96":    {"Document level allowance VAT rate", "Umsatzsteuersatz"},
	"BT-97":    {"Document level allowance reason", "Grund des Nachlasses"},
	"BT-98":    {"Document level allowance reason code", "Code des Nachlassgrundes"},
	"BT-99":    {"Document level charge amount", "Betrag des Zuschlags"},
	"BT-100":   {"Document level charge base amount", "Grundbetrag"},
	"BT-101":   {"Document level charge percentage", "Prozentsatz"},
	"BT-102":   {"Document level charge VAT category code", "Umsatzsteuerkategorie"},
	"BT-103":   {"Document level charge VAT rate", "Umsatzsteuersatz"},
	"BT-104":   {"Document level charge reason", "Grund des Zuschlags"},
	"BT-105":   {"Document level charge reason code", "Code des Zuschlaggrundes"},
	"BT-106":   {"Sum of Invoice line net amount", "Summe aller Positionen"},
	"BT-107":   {"Sum of allowances on document level", "Summe der Nachlässe"},
	"BT-108":   {"Sum of charges on document level", "Summe der Zuschläge"},
	"BT-109":   {"Invoice total amount without VAT", "Gesamtsumme ohne Umsatzsteuer"},
	"BT-110":   {"Invoice total VAT amount", "Summe der Umsatzsteuer"},
	"BT-111":   {"Invoice total VAT amount in accounting currency", "Summe der Umsatzsteuer in Buchungswährung"},
	"BT-112":   {"Invoice total amount with VAT", "Gesamtsumme mit Umsatzsteuer"},
	"BT-113":   {"Paid amount", "Gezahlter Betrag"},
	"BT-114":   {"Rounding amount", "Rundungsbetrag"},
	"BT-115":   {"Amount due for payment", "Fälliger Betrag"},
	"BT-116":   {"VAT category taxable amount", "Gesamtsumme nach Kategorie"},
	"BT-117":   {"VAT category tax amount", "Umsatzsteuerbetrag nach Kategorie"},
	"BT-118":   {"VAT category code", "Umsatzsteuerkategorie"},
	"BT-119":   {"VAT category rate", "Umsatzsteuersatz"},
	"BT-120":   {"VAT exemption reason text", "Befreiungsgrund"},
	"BT-121":   {"VAT exemption reason code", "Code für den Befreiungsgrund"},
	"BT-122":   {"Supporting document reference", "Kennung"},
	"BT-123":   {"Supporting document description", "Beschreibung"},
	"BT-124":   {"External document location", "Verweis (URL)"},
	"BT-125":   {"Attached document", "Anhang"},
	"BT-125-1": {"Attached document MIME code", "Format des Anhangs"},
	"BT-125-2": {"Attached document filename", "Dateiname"},
	"BT-126":   {"Invoice line identifier", "Position"},
	"BT-127":   {"Invoice line note", "Freitext"},
	"BT-128":   {"Invoice line object identifier", "Objektkennung"},
	"BT-128-1": {"Invoice line object identifier scheme", "Schema der Objektkennung"},
	"BT-129":   {"Invoiced quantity", "Menge"},
	"BT-130":   {"Invoiced quantity unit of measure code", "Einheit"},
	"BT-131":   {"Invoice line net amount", "Gesamtpreis (netto)"},
	"BT-132":   {"Referenced purchase order line reference", "Referenz zur Bestellposition"},
	"BT-133":   {"Invoice line Buyer accounting reference", "Buchungsreferenz"},
	"BT-134":   {"Invoice line period start date", "Beginn des Abrechnungszeitraums"},
	"BT-135":   {"Invoice line period end date", "Ende des Abrechnungszeitraums"},
	"BT-136":   {"Invoice line allowance amount", "Betrag des Nachlasses"},
	"BT-137":   {"Invoice line allowance base amount", "Grundbetrag"},
	"BT-138":   {"Invoice line allowance percentage", "Prozentsatz"},
	"BT-139":   {"Invoice line allowance reason", "Grund des Nachlasses"},
	"BT-140":   {"Invoice line allowance reason code", "Code des Nachlassgrundes"},
	"BT-141":   {"Invoice line charge amount", "Betrag des Zuschlags"},
	"BT-142":   {"Invoice line charge base amount", "Grundbetrag"},
	"BT-143":   {"Invoice line charge percentage", "Prozentsatz"},
	"BT-144":   {"Invoice line charge reason", "Grund des Zuschlags"},
	"BT-145":   {"Invoice line charge reason code", "Code des Zuschlaggrundes"},
	"BT-146":   {"Item net price", "Preis pro Einheit (netto)"},
	"BT-147":   {"Item price discount", "Rabatt (netto)"},
	"BT-148":   {"Item gross price", "Listenpreis (netto)"},
	"BT-149":   {"Item price base quantity", "Basismenge zum Artikelpreis"},
	"BT-150":   {"Item price base quantity unit of measure code", "Einheit der Basismenge"},
	"BT-151":   {"Invoiced item VAT category code", "Umsatzsteuerkategorie"},
	"BT-152":   {"Invoiced item VAT rate", "Umsatzsteuersatz in %"},
	"BT-153":   {"Item name", "Bezeichnung"},
	"BT-154":   {"Item description", "Beschreibung"},
	"BT-155":   {"Item Seller's identifier", "Artikelnummer des Verkäufers"},
	"BT-156":   {"Item Buyer's identifier", "Artikelnummer des Käufers"},
	"BT-157":   {"Item standard identifier", "Artikelkennung"},
	"BT-157-1": {"Item standard identifier scheme", "Schema der Artikelkennung"},
	"BT-158":   {"Item classification identifier", "Code der Artikelklassifizierung"},
	"BT-158-1": {"Item classification scheme", "Kennung des Klassifizierungsschemas"},
	"BT-158-2": {"Item classification scheme version", "Version des Klassifizierungsschemas"},
	"BT-159":   {"Item country of origin", "Herkunftsland"},
	"BT-160":   {"Item attribute name", "Bezeichnung der Eigenschaft"},
	"BT-161":   {"Item attribute value", "Wert der Eigenschaft"},
}

// codeNames names the common code values the views spell out next to the
// code (UNTDID 1001 document types, UNTDID 5305 VAT categories, UNTDID
// 4461 payment means). The code itself is always shown.
var codeNames = map[string]label{
	"1001:380": {"Commercial invoice", "Handelsrechnung"},
	"1001:381": {"Credit note", "Gutschrift"},
	"1001:383": {"Debit note", "Belastungsanzeige"},
	"1001:384": {"Corrected invoice", "Rechnungskorrektur"},
	"1001:386": {"Prepayment invoice", "Vorauszahlungsrechnung"},
	"1001:389": {"Self-billed invoice", "Selbst ausgestellte Rechnung"},
	"1001:326": {"Partial invoice", "Teilrechnung"},
	"1001:875": {"Partial construction invoice", "Abschlagsrechnung (Bauleistung)"},
	"1001:876": {"Partial final construction invoice", "Teilschlussrechnung (Bauleistung)"},
	"1001:877": {"Final construction invoice", "Schlussrechnung (Bauleistung)"},
	"5305:S":   {"Standard rate", "Normalsatz"},
	"5305:Z":   {"Zero rated goods", "Nullsatz"},
	"5305:E":   {"Exempt from tax", "Steuerbefreit"},
	"5305:AE":  {"VAT reverse charge", "Umkehrung der Steuerschuldnerschaft"},
	"5305:K":   {"Intra-community supply", "Innergemeinschaftliche Lieferung"},
	"5305:G":   {"Free export item, tax not charged", "Steuerfreie Ausfuhr"},
	"5305:O":   {"Not subject to VAT", "Nicht steuerbar"},
	"5305:L":   {"Canary Islands general indirect tax", "IGIC (Kanarische Inseln)"},
	"5305:M":   {"Tax for production, services and importation in Ceuta and Melilla", "IPSI (Ceuta und Melilla)"},
	"4461:10":  {"In cash", "Bar"},
	"4461:30":  {"Credit transfer", "Überweisung"},
	"4461:31":  {"Debit transfer", "Überweisung"},
	"4461:42":  {"Payment to bank account", "Zahlung auf Bankkonto"},
	"4461:48":  {"Bank card", "Bankkarte"},
	"4461:49":  {"Direct debit", "Lastschrift"},
	"4461:57":  {"Standing agreement", "Dauerauftrag"},
	"4461:58":  {"SEPA credit transfer", "SEPA-Überweisung"},
	"4461:59":  {"SEPA direct debit", "SEPA-Lastschrift"},
	"4461:97":  {"Clearing between partners", "Verrechnung zwischen Partnern"},
	"4461:ZZZ": {"Mutually defined", "Individuell vereinbart"},
}

// codeText returns "code (name)" when list names the code, else the code.
func codeText(lang Lang, list, code string) string {
	if code == "" {
		return ""
	}
	l, ok := codeNames[list+":"+code]
	if !ok {
		return code
	}
	if lang == German {
		return code + " (" + l.de + ")"
	}
	return code + " (" + l.en + ")"
}
