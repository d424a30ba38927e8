package wire

// Attachment is one entry of the extract/attachments answer: a file
// embedded in the PDF (origin "pdf") or a BG-24 supporting document
// carried inside the embedded invoice XML (origin "invoice:BG-24").
type Attachment struct {
	Name          string `json:"name" required:"true" doc:"File name: the file specification's /UF or /F (pdf); the @filename of the binary object, else the document reference id (BG-24)."`
	MimeType      string `json:"mime_type" required:"true" doc:"MIME type: the embedded file's /Subtype (pdf) or @mimeCode (BG-24); empty when the file does not say."`
	Size          int    `json:"size" required:"true" doc:"Size in bytes of the decoded content."`
	SHA256        string `json:"sha256" required:"true" doc:"SHA-256 of the decoded content, lowercase hex."`
	Relationship  string `json:"relationship" required:"true" doc:"The file specification's /AFRelationship (Data, Source, Alternative, Supplement, Unspecified); empty when absent and for BG-24."`
	Description   string `json:"description" required:"true" doc:"The file specification's /Desc (or the annotation's /Contents); BG-24: the document description (UBL cbc:DocumentDescription, CII ram:Name)."`
	Origin        string `json:"origin" required:"true" enum:"pdf,invoice:BG-24" doc:"pdf: embedded in the PDF; invoice:BG-24: inside the invoice XML."`
	Location      string `json:"location" required:"true" doc:"Where it was found: /Names/EmbeddedFiles, /AF, page N annotation (pdf); the embedded XML's file name and the element path (BG-24)."`
	ContentBase64 string `json:"content_base64,omitempty" doc:"The decoded content, base64 (only with include_content=true)."`
}

// Attachments is the extract/attachments answer.
type Attachments struct {
	Attachments []Attachment `json:"attachments" required:"true"`
	// Reconstructed is set when the PDF's cross-reference data was broken
	// and the object table was rebuilt by scanning the file.
	Reconstructed bool `json:"reconstructed" required:"true" doc:"The PDF's cross-reference was broken and rebuilt by scanning the file: what a damaged part held may be missing."`
}

// ConsistencyResult is the pdfa/consistency answer.
type ConsistencyResult struct {
	Consistent bool              `json:"consistent" required:"true" doc:"True when every item's XML value is printed on the pages."`
	XMLFile    string            `json:"xml_file" required:"true" doc:"The embedded XML that was compared (factur-x.xml, ...)."`
	Items      []ConsistencyItem `json:"items" required:"true"`
}

// ConsistencyItem is one compared value.
type ConsistencyItem struct {
	Name     string               `json:"name" required:"true" enum:"invoice_id,issue_date,currency,payable_amount" doc:"invoice_id (BT-1), issue_date (BT-2), currency (BT-5), payable_amount (BT-115)."`
	BT       string               `json:"bt" required:"true"`
	XMLValue string               `json:"xml_value" required:"true" doc:"The value in the embedded XML; empty when the XML has none."`
	Found    bool                 `json:"found" required:"true" doc:"Whether the value is printed on a page (in any of the tolerated formats)."`
	Evidence *ConsistencyEvidence `json:"evidence" required:"true" doc:"Where it was found; null when not found."`
	Note     string               `json:"note,omitempty" doc:"Why an item was not found or how it matched."`
}

// ConsistencyEvidence locates a value on the pages.
type ConsistencyEvidence struct {
	Page  int    `json:"page" required:"true" doc:"1-based page number."`
	Line  string `json:"line" required:"true" doc:"The text line (as extracted) that carries the value."`
	Match string `json:"match" required:"true" doc:"The printed form that matched, e.g. 1.234,56 or 31.12.2026."`
}
