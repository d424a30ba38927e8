package rulesets

// SchemaDef is an XSD-only format (no official Schematron) the catalog
// knows: root schema and OASIS catalog, relative to the shared directory.
// Load it with xsd.Load(shared/Path, xsd.Options{CatalogFiles:
// []string{shared/Catalog}, Root: shared/Dir}).
type SchemaDef struct {
	Name    string // format name, e.g. "fatturapa"
	Version string
	Path    string // root .xsd
	Catalog string // OASIS catalog for its absolute schemaLocation imports
	Dir     string // the schema set's directory (xsd.Options.Root)
	// Namespace and Local name the root element the schema validates.
	Namespace, Local string
}

// Schemas lists the national formats validated by XSD only (generation
// gates, FatturaPA validation): FatturaPA 1.2.2 (xmldsig by catalog),
// Facturae 3.2.2 (xmldsig by catalog) and KSeF FA(3) (StrukturyDanych by
// catalog).
func Schemas() []SchemaDef {
	return []SchemaDef{
		{Name: "fatturapa", Version: "1.2.2", Dir: "rulesets/fatturapa/1.2.2",
			Path:      "rulesets/fatturapa/1.2.2/Schema_del_file_xml_FatturaPA_v1.2.2.xsd",
			Catalog:   "rulesets/fatturapa/1.2.2/catalog.xml",
			Namespace: "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2", Local: "FatturaElettronica"},
		{Name: "facturae", Version: "3.2.2", Dir: "rulesets/facturae/3.2.2",
			Path:      "rulesets/facturae/3.2.2/Facturaev3_2_2.xsd",
			Catalog:   "rulesets/facturae/3.2.2/catalog.xml",
			Namespace: "http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml", Local: "Facturae"},
		{Name: "ksef_fa", Version: "3", Dir: "rulesets/ksef-fa/3",
			Path:      "rulesets/ksef-fa/3/schemat_FA(3)_v1-0E.xsd",
			Catalog:   "rulesets/ksef-fa/3/catalog.xml",
			Namespace: "http://crd.gov.pl/wzor/2025/06/25/13775/", Local: "Faktura"},
	}
}
