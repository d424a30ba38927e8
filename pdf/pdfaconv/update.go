package pdfaconv

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/einvoice-dev/einvoice/pdf/pdfa"
	"github.com/einvoice-dev/einvoice/pdf/pdfread"
)

// finish appends to Ghostscript's PDF/A an incremental update with our XMP
// (pdfaid part 3 conformance B plus schemas), an Info dictionary equal to
// it, the attachments (embedded file streams and file specifications with
// /AFRelationship), the catalog's /AF array and /Names /EmbeddedFiles tree.
// The update uses the same kind of cross-reference section as the file
// (table or stream) and keeps the first /ID element.
func (c *Converter) finish(gsOut []byte, atts []Attachment, schemas []pdfa.XMPSchema) (*Result, error) {
	doc, err := pdfread.Open(gsOut, c.cfg.Limits)
	if err != nil {
		return nil, &Error{Kind: KindUnreadable, Detail: "Ghostscript's output cannot be read back", Err: err}
	}
	pages, err := doc.Pages()
	if err != nil {
		return nil, &Error{Kind: KindUnreadable, Detail: "Ghostscript's output has no readable page tree", Err: err}
	}
	cat, err := doc.Catalog()
	if err != nil {
		return nil, &Error{Kind: KindUnreadable, Detail: "Ghostscript's output has no catalog", Err: err}
	}
	trailer := doc.Trailer()
	rootRef, ok := trailer["Root"].(pdfread.Ref)
	if !ok {
		return nil, &Error{Kind: KindUnreadable, Detail: "Ghostscript's output has a direct catalog"}
	}
	atts, err = uniqueNames(atts)
	if err != nil {
		return nil, err
	}

	now := c.cfg.Now().UTC().Truncate(time.Second)
	info := pdfa.Info{Producer: c.cfg.Producer, CreationDate: now, ModDate: now}
	if old, ok := pdfread.AsDict(c.resolve(doc, trailer["Info"])); ok {
		text := func(k pdfread.Name) string {
			s, _ := c.resolve(doc, old[k]).(pdfread.String)
			return strings.TrimSpace(pdfread.TextString(s))
		}
		info.Title, info.Author, info.Subject, info.Keywords, info.Creator = text("Title"), text("Author"), text("Subject"), text("Keywords"), text("Creator")
	}

	u := &update{next: doc.Size()}
	if u.next < 1 {
		u.next = 1
	}
	xmp := pdfa.XMP{Part: 3, Conformance: "B", Info: info, Schemas: schemas}.Bytes()
	metaRef := u.add(&pdfread.Stream{Dict: pdfread.Dict{"Type": pdfread.Name("Metadata"), "Subtype": pdfread.Name("XML")}, Raw: xmp})
	infoRef := u.add(infoDict(info))

	newCat := make(pdfread.Dict, len(cat)+3)
	for k, v := range cat {
		newCat[k] = v
	}
	newCat["Metadata"] = metaRef
	names := make([]string, 0, len(atts))
	nd := pdfread.Dict{}
	if old, ok := pdfread.AsDict(c.resolve(doc, cat["Names"])); ok {
		for k, v := range old {
			nd[k] = v
		}
	}
	delete(nd, "EmbeddedFiles")
	if len(atts) > 0 {
		af := slices.Clone(doc.GetArray(cat, "AF"))
		var tree pdfread.Array
		sorted := slices.Clone(atts)
		slices.SortStableFunc(sorted, func(a, b Attachment) int { return strings.Compare(a.Name, b.Name) })
		for _, a := range sorted {
			spec := u.embed(a, now)
			af = append(af, spec)
			tree = append(tree, textString(a.Name), spec)
			names = append(names, a.Name)
		}
		newCat["AF"] = af
		nd["EmbeddedFiles"] = pdfread.Dict{"Names": tree}
	}
	if len(nd) > 0 {
		newCat["Names"] = nd
	} else {
		delete(newCat, "Names")
	}
	u.set(rootRef, newCat)
	// Ghostscript sometimes keeps the input's embedded files (without /AF).
	// Our tree replaces its tree, and its objects are overwritten with null:
	// veraPDF reports a file specification outside /AF under ISO 19005-3
	// 6.8 even when nothing refers to it any more.
	for _, r := range c.staleFileObjects(doc, cat) {
		u.set(r, pdfread.Null{})
	}

	buf := slices.Clip(gsOut)
	if !bytes.HasSuffix(buf, []byte("\n")) {
		buf = append(buf, '\n')
	}
	var id0 pdfread.String
	if ids := doc.GetArray(trailer, "ID"); len(ids) > 0 {
		id0, _ = c.resolve(doc, ids[0]).(pdfread.String)
	}
	out := u.write(buf, doc.XrefIsStream(), doc.StartXref(), rootRef, infoRef, id0)
	return &Result{PDF: out, Pages: len(pages), Attachments: names}, nil
}

// staleFileObjects returns the references of the /EmbeddedFiles name tree
// of cat: its nodes, file specifications and embedded file streams.
func (c *Converter) staleFileObjects(doc *pdfread.Doc, cat pdfread.Dict) []pdfread.Ref {
	names, ok := pdfread.AsDict(c.resolve(doc, cat["Names"]))
	if !ok {
		return nil
	}
	seen := map[pdfread.Ref]bool{}
	var refs []pdfread.Ref
	note := func(o pdfread.Object) bool {
		r, ok := o.(pdfread.Ref)
		if !ok {
			return true
		}
		if seen[r] {
			return false
		}
		seen[r] = true
		refs = append(refs, r)
		return true
	}
	var walk func(node pdfread.Object, depth int)
	walk = func(node pdfread.Object, depth int) {
		if depth > 32 || !note(node) {
			return
		}
		n, ok := pdfread.AsDict(c.resolve(doc, node))
		if !ok {
			return
		}
		leaf := doc.GetArray(n, "Names")
		for i := 1; i < len(leaf); i += 2 {
			note(leaf[i])
			if fs, ok := pdfread.AsDict(c.resolve(doc, leaf[i])); ok {
				for _, s := range doc.GetDict(fs, "EF") {
					note(s)
				}
			}
		}
		for _, kid := range doc.GetArray(n, "Kids") {
			walk(kid, depth+1)
		}
	}
	walk(names["EmbeddedFiles"], 0)
	return refs
}

func (c *Converter) resolve(doc *pdfread.Doc, o pdfread.Object) pdfread.Object {
	r, err := doc.Resolve(o)
	if err != nil {
		return nil
	}
	return r
}

// update is the set of objects of one incremental update.
type update struct {
	next int
	objs []updObj
}

type updObj struct {
	ref pdfread.Ref
	obj pdfread.Object
}

func (u *update) add(o pdfread.Object) pdfread.Ref {
	r := pdfread.Ref{Num: u.next}
	u.next++
	u.objs = append(u.objs, updObj{r, o})
	return r
}

func (u *update) set(r pdfread.Ref, o pdfread.Object) {
	u.objs = append(u.objs, updObj{r, o})
	if r.Num >= u.next {
		u.next = r.Num + 1
	}
}

// embed adds the embedded file stream and file specification of a and
// returns the specification's reference.
func (u *update) embed(a Attachment, now time.Time) pdfread.Ref {
	mime := a.MIME
	if mime == "" {
		mime = "application/octet-stream"
	}
	sum := md5.Sum(a.Data)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(a.Data)
	_ = zw.Close()
	stream := u.add(&pdfread.Stream{Dict: pdfread.Dict{
		"Type": pdfread.Name("EmbeddedFile"), "Subtype": pdfread.Name(mime), "Filter": pdfread.Name("FlateDecode"),
		"Params": pdfread.Dict{"Size": pdfread.Int(len(a.Data)), "ModDate": pdfread.String(pdfDate(now)), "CheckSum": pdfread.String(sum[:])},
	}, Raw: z.Bytes()})
	rel := a.Relationship
	if rel == "" {
		rel = pdfa.Unspecified
	}
	spec := pdfread.Dict{
		"Type": pdfread.Name("Filespec"), "F": pdfread.String(asciiName(a.Name)), "UF": textString(a.Name),
		"AFRelationship": pdfread.Name(rel), "EF": pdfread.Dict{"F": stream, "UF": stream},
	}
	if a.Description != "" {
		spec["Desc"] = textString(a.Description)
	}
	return u.add(spec)
}

// write appends the objects, the cross-reference section (same kind as
// the file's last one) and the trailer to buf.
func (u *update) write(buf []byte, xrefStream bool, prev int64, root, info pdfread.Ref, id0 pdfread.String) []byte {
	offs := make(map[int]int, len(u.objs)+1)
	for _, o := range u.objs {
		offs[o.ref.Num] = len(buf)
		buf = pdfread.AppendIndirect(buf, o.ref, o.obj)
	}
	sum := md5.Sum(buf)
	if id0 == "" {
		id0 = pdfread.String(sum[:])
	}
	tr := pdfread.Dict{
		"Root": root, "Info": info, "Prev": pdfread.Int(prev),
		"ID": pdfread.Array{id0, pdfread.String(sum[:])},
	}
	if xrefStream {
		self := pdfread.Ref{Num: u.next}
		u.next++
		offs[self.Num] = len(buf)
		nums, index := sections(offs)
		var data []byte
		for _, n := range nums {
			off := offs[n]
			data = append(data, 1, byte(off>>24), byte(off>>16), byte(off>>8), byte(off), 0, 0)
		}
		tr["Type"], tr["Size"], tr["W"], tr["Index"] = pdfread.Name("XRef"), pdfread.Int(u.next), pdfread.Array{pdfread.Int(1), pdfread.Int(4), pdfread.Int(2)}, index
		start := len(buf)
		buf = pdfread.AppendIndirect(buf, self, &pdfread.Stream{Dict: tr, Raw: data})
		return fmt.Appendf(buf, "startxref\n%d\n%%%%EOF\n", start)
	}
	start := len(buf)
	nums, index := sections(offs)
	buf = append(buf, "xref\n"...)
	for i := 0; i < len(index); i += 2 {
		first, n := int(index[i].(pdfread.Int)), int(index[i+1].(pdfread.Int))
		buf = fmt.Appendf(buf, "%d %d\n", first, n)
		for _, num := range nums {
			if num >= first && num < first+n {
				buf = fmt.Appendf(buf, "%010d 00000 n\r\n", offs[num])
			}
		}
	}
	tr["Size"] = pdfread.Int(u.next)
	buf = append(buf, "trailer\n"...)
	buf = pdfread.AppendObject(buf, tr)
	return fmt.Appendf(buf, "\nstartxref\n%d\n%%%%EOF\n", start)
}

// sections returns the sorted object numbers of offs and the /Index array
// of their runs of consecutive numbers.
func sections(offs map[int]int) ([]int, pdfread.Array) {
	nums := make([]int, 0, len(offs))
	for n := range offs {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	var index pdfread.Array
	for i := 0; i < len(nums); {
		j := i + 1
		for j < len(nums) && nums[j] == nums[j-1]+1 {
			j++
		}
		index = append(index, pdfread.Int(nums[i]), pdfread.Int(j-i))
		i = j
	}
	return nums, index
}

// uniqueNames drops the input's own files that a requested file of the
// same name replaces, and renames the remaining duplicates "name (2).ext".
func uniqueNames(atts []Attachment) ([]Attachment, error) {
	atts = slices.Clone(atts)
	requested := map[string]bool{}
	for i, a := range atts {
		a.Name = strings.ToValidUTF8(a.Name, "\uFFFD")
		atts[i].Name = a.Name
		if strings.TrimSpace(a.Name) == "" {
			return nil, &Error{Kind: KindBadAttachment, Detail: fmt.Sprintf("attachment %d has no file name", i+1)}
		}
		if !a.kept {
			requested[a.Name] = true
		}
	}
	out := make([]Attachment, 0, len(atts))
	used := map[string]bool{}
	for _, a := range atts {
		if a.kept && requested[a.Name] {
			continue
		}
		name := a.Name
		ext := path.Ext(name)
		for n := 2; used[name]; n++ {
			name = strings.TrimSuffix(a.Name, ext) + " (" + strconv.Itoa(n) + ")" + ext
		}
		used[name] = true
		a.Name = name
		out = append(out, a)
	}
	return out, nil
}

// infoDict is the Info dictionary equal to the XMP written for in.
func infoDict(in pdfa.Info) pdfread.Dict {
	d := pdfread.Dict{
		"Producer":     textString(in.Producer),
		"CreationDate": pdfread.String(pdfDate(in.CreationDate)),
		"ModDate":      pdfread.String(pdfDate(in.ModDate)),
	}
	for k, v := range map[pdfread.Name]string{"Title": in.Title, "Author": in.Author, "Subject": in.Subject, "Keywords": in.Keywords, "Creator": in.Creator} {
		if v != "" {
			d[k] = textString(v)
		}
	}
	return d
}

// pdfDate formats t as a PDF date in UTC, equal to pdfa's XMP dates.
func pdfDate(t time.Time) string { return "D:" + t.UTC().Format("20060102150405") + "+00'00'" }

// textString encodes s as a PDF text string: as is when ASCII, else
// UTF-16BE with a byte order mark.
func textString(s string) pdfread.String {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return pdfread.String(s)
	}
	b := []byte{0xFE, 0xFF}
	for _, c := range utf16.Encode([]rune(s)) {
		b = append(b, byte(c>>8), byte(c))
	}
	return pdfread.String(b)
}

// asciiName is s with every byte outside printable ASCII replaced by '_'
// (the /F entry; /UF carries the real name).
func asciiName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			b[i] = '_'
		}
	}
	return string(b)
}
