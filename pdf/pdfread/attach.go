package pdfread

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Attachment is one embedded file of the document.
type Attachment struct {
	// Name is the file specification's /UF, else /F, else the name-tree key.
	Name string
	// MIME is the embedded file stream's /Subtype ("text/xml"), "" if absent.
	MIME string
	// Relationship is the file specification's /AFRelationship ("" if absent).
	Relationship string
	// Description is the file specification's /Desc (or the annotation's /Contents).
	Description string
	// Data is the decoded content.
	Data []byte
	// Origin says where the file was found: "names" (the /EmbeddedFiles
	// name tree), "af" (only in the catalog /AF array) or "annotation"
	// (a /FileAttachment annotation).
	Origin string
	// Page is the 1-based page of an annotation (0 otherwise).
	Page int
	// InAF tells whether the catalog /AF array lists the file.
	InAF bool
}

// Attachments lists the embedded files: the /EmbeddedFiles name tree in
// order, then files only listed in the catalog /AF array, then
// file-attachment annotations page by page. A file specification reached
// twice (same object) is listed once. Files whose stream cannot be decoded
// are skipped; an error is returned only when the document itself cannot
// be read or a limit is exceeded. A page tree over Limits.MaxPages returns
// the files found (those of the first pages included) with the ErrLimit.
func (d *Doc) Attachments() (atts []Attachment, err error) {
	defer recoverErr(&err)
	cat, err := d.Catalog()
	if err != nil {
		return nil, err
	}
	seen := map[Ref]bool{}
	inAF := map[Ref]bool{}
	for _, x := range d.GetArray(cat, "AF") {
		if r, ok := x.(Ref); ok {
			inAF[r] = true
		}
	}
	addSpec := func(key string, spec Object, origin string, page int) error {
		if r, ok := spec.(Ref); ok {
			if seen[r] {
				return nil
			}
			seen[r] = true
		}
		fs, ok := AsDict(d.mustResolve(spec))
		if !ok {
			return nil
		}
		a, ok, err := d.fileSpec(fs, key)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		a.Origin, a.Page = origin, page
		if r, ok := spec.(Ref); ok {
			a.InAF = inAF[r]
		}
		atts = append(atts, a)
		return nil
	}
	// 1. The name tree.
	names := d.GetDict(cat, "Names")
	var walkErr error
	d.walkNameTree(d.Get(names, "EmbeddedFiles"), func(key string, val Object) bool {
		if err := addSpec(key, val, "names", 0); err != nil {
			walkErr = err
			return false
		}
		return true
	})
	if walkErr != nil {
		return atts, walkErr
	}
	// 2. /AF entries not in the name tree.
	for _, x := range d.GetArray(cat, "AF") {
		if err := addSpec("", x, "af", 0); err != nil {
			return atts, err
		}
	}
	// 3. File-attachment annotations.
	pages, perr := d.Pages()
	if perr != nil && !isLimit(perr) {
		perr = nil // a broken page tree: the files found stand
	}
	for i, p := range pages {
		for _, a := range d.GetArray(p.Dict, "Annots") {
			ad, ok := AsDict(d.mustResolve(a))
			if !ok {
				continue
			}
			if st, _ := ad["Subtype"].(Name); st != "FileAttachment" {
				continue
			}
			n := len(atts)
			if err := addSpec("", ad["FS"], "annotation", i+1); err != nil {
				return atts, err
			}
			if len(atts) > n && atts[n].Description == "" {
				if s, ok := d.Get(ad, "Contents").(String); ok {
					atts[n].Description = TextString(s)
				}
			}
		}
	}
	// Over the page limit: the annotations of the pages beyond it were
	// not read; the caller decides whether what was found is enough.
	return atts, perr
}

// fileSpec reads a file specification dictionary; ok is false when it has
// no embedded file stream.
func (d *Doc) fileSpec(fs Dict, key string) (Attachment, bool, error) {
	ef := d.GetDict(fs, "EF")
	if ef == nil {
		return Attachment{}, false, nil
	}
	var s *Stream
	for _, k := range []Name{"F", "UF", "DOS", "Mac", "Unix"} {
		if st, ok := d.Get(ef, k).(*Stream); ok {
			s = st
			break
		}
	}
	if s == nil {
		return Attachment{}, false, nil
	}
	data, err := d.decodeStream(s)
	if err != nil {
		if isLimit(err) {
			return Attachment{}, false, err
		}
		return Attachment{}, false, nil
	}
	a := Attachment{Name: key, Data: data}
	for _, k := range []Name{"UF", "F"} {
		if v, ok := d.Get(fs, k).(String); ok && len(v) > 0 {
			a.Name = TextString(v)
			break
		}
	}
	if st, ok := d.Get(s.Dict, "Subtype").(Name); ok {
		a.MIME = string(st)
	}
	if r, ok := d.Get(fs, "AFRelationship").(Name); ok {
		a.Relationship = string(r)
	}
	if v, ok := d.Get(fs, "Desc").(String); ok {
		a.Description = TextString(v)
	}
	return a, true, nil
}

// walkNameTree visits the leaves of a name tree in order until fn returns
// false. Cycles and overly deep trees are cut off.
func (d *Doc) walkNameTree(root Object, fn func(key string, val Object) bool) {
	seen := map[Ref]bool{}
	var walk func(node Object, depth int) bool
	walk = func(node Object, depth int) bool {
		if depth > d.lim.MaxDepth {
			return true
		}
		if r, ok := node.(Ref); ok {
			if seen[r] {
				return true
			}
			seen[r] = true
		}
		n, ok := AsDict(d.mustResolve(node))
		if !ok {
			return true
		}
		if d.charge(64) != nil {
			return false
		}
		leaf := d.GetArray(n, "Names")
		for i := 0; i+1 < len(leaf); i += 2 {
			k, _ := d.mustResolve(leaf[i]).(String)
			if !fn(TextString(k), leaf[i+1]) {
				return false
			}
		}
		for _, kid := range d.GetArray(n, "Kids") {
			if !walk(kid, depth+1) {
				return false
			}
		}
		return true
	}
	walk(root, 0)
}

// Metadata returns the decoded catalog /Metadata stream (XMP), nil when
// there is none.
func (d *Doc) Metadata() (out []byte, err error) {
	defer recoverErr(&err)
	cat, err := d.Catalog()
	if err != nil {
		return nil, err
	}
	s, ok := d.Get(cat, "Metadata").(*Stream)
	if !ok {
		return nil, nil
	}
	return d.decodeStream(s)
}

// pdfDocHigh maps PDFDocEncoding 0x80..0xA0 to Unicode (0 = undefined).
var pdfDocHigh = [...]rune{
	0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044,
	0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C, 0x201D, 0x2018,
	0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160,
	0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0xFFFD,
	0x20AC,
}

// TextString decodes a PDF text string: UTF-16BE with a byte order mark,
// UTF-8 with a byte order mark (PDF 2.0), else PDFDocEncoding.
func TextString(s String) string {
	b := []byte(s)
	if len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF {
		u := make([]uint16, 0, len(b)/2)
		for i := 2; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF && utf8.Valid(b[3:]) {
		return string(b[3:])
	}
	out := make([]rune, 0, len(b))
	for _, c := range b {
		switch {
		case c >= 0x80 && c <= 0xA0:
			out = append(out, pdfDocHigh[c-0x80])
		default:
			out = append(out, rune(c))
		}
	}
	return string(out)
}
