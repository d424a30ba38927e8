package pdfread

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
)

// entry is one cross-reference entry.
type entry struct {
	kind   byte  // 1: at offset; 2: in object stream
	off    int64 // kind 1: byte offset; kind 2: object stream number
	idx    int   // kind 2: index in the object stream
	gen    int
	direct bool // found by scanning (reconstruction)
}

// Doc is an opened PDF. It is not safe for concurrent use.
type Doc struct {
	data    []byte
	lim     Limits
	xref    map[int]entry
	trailer Dict
	cache   map[int]Object
	busy    map[int]bool
	objstm  map[int]*objStream
	work    int64

	startxref     int64
	xrefStream    bool
	reconstructed bool
	scanned       map[int]entry // lazily built by scanObjects
}

type objStream struct {
	data  []byte
	first int
	offs  map[int]int // object number -> offset relative to first
	index []int       // object numbers by index
}

// PanicError is a panic inside the reader, recovered. It wraps
// ErrMalformed; Stack is for logs, never for response bodies.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%v: internal error reading PDF: %v", ErrMalformed, e.Value)
}

func (e *PanicError) Unwrap() error { return ErrMalformed }

// recoverErr turns a panic into a *PanicError.
func recoverErr(err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Value: r, Stack: debug.Stack()}
	}
}

// Open parses the cross-reference structure of data. The Doc keeps data
// (streams are sub-slices of it): do not modify it afterwards.
func Open(data []byte, lim Limits) (doc *Doc, err error) {
	defer recoverErr(&err)
	d := &Doc{
		data:   data,
		lim:    lim.withDefaults(),
		cache:  map[int]Object{},
		busy:   map[int]bool{},
		objstm: map[int]*objStream{},
	}
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	if !bytes.Contains(head, []byte("%PDF-")) {
		return nil, malformed("no %%PDF- header in the first 1024 bytes")
	}
	if xerr := d.loadXref(); xerr != nil || !d.rootOK() {
		if rerr := d.reconstruct(); rerr != nil {
			if xerr != nil {
				return nil, fmt.Errorf("%w (cross-reference: %v)", rerr, xerr)
			}
			return nil, rerr
		}
	}
	if _, enc := d.trailer["Encrypt"]; enc {
		return nil, ErrEncrypted
	}
	return d, nil
}

// Trailer returns the trailer dictionary (of the newest section; for a
// reconstructed file, the best trailer found).
func (d *Doc) Trailer() Dict { return d.trailer }

// StartXref is the offset given by the last startxref (for /Prev of an
// incremental update); -1 when the file has none usable.
func (d *Doc) StartXref() int64 { return d.startxref }

// XrefIsStream tells whether the newest cross-reference section is a stream.
func (d *Doc) XrefIsStream() bool { return d.xrefStream }

// Reconstructed tells whether the cross-reference data was broken and the
// object table was rebuilt by scanning the file.
func (d *Doc) Reconstructed() bool { return d.reconstructed }

// Size is one more than the highest object number in use (the trailer
// /Size an incremental update must exceed).
func (d *Doc) Size() int {
	m := 0
	for n := range d.xref {
		if n+1 > m {
			m = n + 1
		}
	}
	if s, ok := AsInt(d.trailer["Size"]); ok && int(s) > m && s < int64(d.lim.MaxObjects)*4 {
		m = int(s)
	}
	return m
}

// Objects lists the numbers of the objects in use (not free) in the
// cross-reference, sorted.
func (d *Doc) Objects() []int {
	out := make([]int, 0, len(d.xref))
	for n, e := range d.xref {
		if e.kind != 0 {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// Data returns the bytes the Doc was opened on.
func (d *Doc) Data() []byte { return d.data }

func (d *Doc) charge(n int64) error {
	d.work += n
	if d.work > d.lim.MaxWork {
		return limitErr("total work above %d", d.lim.MaxWork)
	}
	return nil
}

func (d *Doc) rootOK() bool {
	root, err := d.Resolve(d.trailer["Root"])
	if err != nil {
		return false
	}
	_, ok := root.(Dict)
	return ok
}

// Catalog returns the document catalog (trailer /Root).
func (d *Doc) Catalog() (cat Dict, err error) {
	defer recoverErr(&err)
	o, err := d.Resolve(d.trailer["Root"])
	if err != nil {
		return nil, err
	}
	c, ok := o.(Dict)
	if !ok {
		return nil, malformed("the trailer has no /Root catalog dictionary")
	}
	return c, nil
}

// findStartxref returns the offset after the last "startxref".
func (d *Doc) findStartxref() (int64, error) {
	tail := d.data
	base := 0
	if len(tail) > 4096 {
		base = len(tail) - 4096
		tail = tail[base:]
	}
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return -1, malformed("no startxref")
	}
	p := &parser{data: d.data, pos: base + i + len("startxref"), max: 1}
	p.skipSpace()
	v, err := strconv.ParseInt(string(p.regularToken()), 10, 64)
	if err != nil || v < 0 || v >= int64(len(d.data)) {
		return -1, malformed("startxref offset is not a valid offset")
	}
	return v, nil
}

func (d *Doc) loadXref() error {
	d.xref = map[int]entry{}
	d.startxref = -1
	off, err := d.findStartxref()
	if err != nil {
		return err
	}
	d.startxref = off
	seen := map[int64]bool{}
	first := true
	for off >= 0 {
		if seen[off] {
			break // /Prev loop: stop, the sections read so far stand
		}
		if len(seen) > 1000 {
			return limitErr("more than 1000 cross-reference sections")
		}
		seen[off] = true
		trailer, isStream, err := d.readSection(off)
		if err != nil {
			if first {
				return err
			}
			break // a broken older section: keep what we have
		}
		if first {
			d.trailer = trailer
			d.xrefStream = isStream
			first = false
		}
		// Hybrid files: the classic trailer points to a stream too.
		if xs, ok := AsInt(trailer["XRefStm"]); ok && !seen[xs] && xs >= 0 && xs < int64(len(d.data)) {
			seen[xs] = true
			_, _, _ = d.readSection(xs)
		}
		prev, ok := AsInt(trailer["Prev"])
		if !ok || prev < 0 || prev >= int64(len(d.data)) {
			break
		}
		off = prev
	}
	if len(d.xref) == 0 {
		return malformed("empty cross-reference")
	}
	return nil
}

// readSection reads the section at off, adding entries not yet defined (the
// newest section is read first, so existing entries win).
func (d *Doc) readSection(off int64) (Dict, bool, error) {
	p := &parser{data: d.data, pos: int(off), max: d.lim.MaxDepth}
	p.skipSpace()
	if bytes.HasPrefix(d.data[p.pos:], []byte("xref")) {
		p.pos += 4
		t, err := d.readTable(p)
		return t, false, err
	}
	t, err := d.readXrefStream(p)
	return t, true, err
}

func (d *Doc) add(num int, e entry) error {
	if num < 0 {
		return nil
	}
	if _, ok := d.xref[num]; ok {
		return nil
	}
	if len(d.xref) >= d.lim.MaxObjects {
		return limitErr("more than %d objects", d.lim.MaxObjects)
	}
	d.xref[num] = e
	return nil
}

func (d *Doc) readTable(p *parser) (Dict, error) {
	for {
		p.skipSpace()
		if bytes.HasPrefix(d.data[p.pos:], []byte("trailer")) {
			p.pos += len("trailer")
			o, err := p.parseObject()
			if err != nil {
				return nil, err
			}
			t, ok := o.(Dict)
			if !ok {
				return nil, malformed("trailer is not a dictionary")
			}
			return t, nil
		}
		start, ok1 := parseNumber(p.regularToken())
		p.skipSpace()
		count, ok2 := parseNumber(p.regularToken())
		s, i1 := start.(Int)
		c, i2 := count.(Int)
		if !ok1 || !ok2 || !i1 || !i2 || s < 0 || c < 0 {
			return nil, malformed("bad cross-reference subsection header at %d", p.pos)
		}
		if int64(c) > int64(d.lim.MaxObjects) {
			return nil, limitErr("cross-reference subsection of %d entries", c)
		}
		for k := int64(0); k < int64(c); k++ {
			p.skipSpace()
			o, ok := parseNumber(p.regularToken())
			p.skipSpace()
			g, ok2 := parseNumber(p.regularToken())
			p.skipSpace()
			typ := p.regularToken()
			oi, _ := o.(Int)
			gi, _ := g.(Int)
			if !ok || !ok2 || len(typ) != 1 {
				return nil, malformed("bad cross-reference entry at %d", p.pos)
			}
			num := int(int64(s) + k)
			if typ[0] == 'n' {
				if num == 0 && oi == 0 {
					continue
				}
				if err := d.add(num, entry{kind: 1, off: int64(oi), gen: int(gi)}); err != nil {
					return nil, err
				}
			} else if _, ok := d.xref[num]; !ok && len(d.xref) < d.lim.MaxObjects {
				d.xref[num] = entry{kind: 0} // free: newer sections win
			}
		}
	}
}

func (d *Doc) readXrefStream(p *parser) (Dict, error) {
	_, o, err := p.parseIndirect()
	if err != nil {
		return nil, err
	}
	s, ok := o.(*Stream)
	if !ok {
		return nil, malformed("no cross-reference at startxref")
	}
	if t, _ := s.Dict["Type"].(Name); t != "XRef" {
		return nil, malformed("stream at startxref is not /Type /XRef")
	}
	data, err := d.decodeStream(s)
	if err != nil {
		return nil, err
	}
	wa, _ := s.Dict["W"].(Array)
	if len(wa) != 3 {
		return nil, malformed("xref stream /W is not 3 integers")
	}
	var w [3]int
	for i := range w {
		v, ok := AsInt(wa[i])
		if !ok || v < 0 || v > 8 {
			return nil, malformed("xref stream /W out of range")
		}
		w[i] = int(v)
	}
	rowLen := w[0] + w[1] + w[2]
	if rowLen == 0 {
		return nil, malformed("xref stream /W is all zero")
	}
	size, _ := AsInt(s.Dict["Size"])
	var index []int64
	if ia, ok := s.Dict["Index"].(Array); ok {
		for _, v := range ia {
			n, _ := AsInt(v)
			index = append(index, n)
		}
	} else {
		index = []int64{0, size}
	}
	field := func(b []byte) int64 {
		var v int64
		for _, c := range b {
			v = v<<8 | int64(c)
		}
		return v
	}
	pos := 0
	for i := 0; i+1 < len(index); i += 2 {
		start, count := index[i], index[i+1]
		if start < 0 || count < 0 || count > int64(d.lim.MaxObjects) {
			return nil, malformed("xref stream /Index out of range")
		}
		for k := int64(0); k < count; k++ {
			if pos+rowLen > len(data) {
				return s.Dict, nil // short stream: keep what we have
			}
			row := data[pos : pos+rowLen]
			pos += rowLen
			typ := int64(1)
			if w[0] > 0 {
				typ = field(row[:w[0]])
			}
			f2 := field(row[w[0] : w[0]+w[1]])
			f3 := field(row[w[0]+w[1]:])
			num := int(start + k)
			switch typ {
			case 1:
				if err := d.add(num, entry{kind: 1, off: f2, gen: int(f3)}); err != nil {
					return nil, err
				}
			case 2:
				if err := d.add(num, entry{kind: 2, off: f2, idx: int(f3)}); err != nil {
					return nil, err
				}
			default:
				if _, ok := d.xref[num]; !ok && len(d.xref) < d.lim.MaxObjects {
					d.xref[num] = entry{kind: 0}
				}
			}
		}
	}
	return s.Dict, nil
}

// scanObjects finds every "n g obj" in the file; the last definition of a
// number wins (as in an incrementally updated file).
func (d *Doc) scanObjects() (map[int]entry, error) {
	if d.scanned != nil {
		return d.scanned, nil
	}
	found := map[int]entry{}
	data := d.data
	pat := []byte("obj")
	i := 0
	for {
		j := bytes.Index(data[i:], pat)
		if j < 0 {
			break
		}
		at := i + j
		i = at + 3
		// "obj" must be a token: not "endobj", followed by a delimiter.
		if at+3 < len(data) && isRegular(data[at+3]) {
			continue
		}
		if at == 0 || !isSpace(data[at-1]) {
			continue
		}
		// Walk back over "gen" and "num".
		k := at - 1
		for k >= 0 && isSpace(data[k]) {
			k--
		}
		ge := k + 1
		for k >= 0 && data[k] >= '0' && data[k] <= '9' {
			k--
		}
		gs := k + 1
		if gs == ge {
			continue
		}
		for k >= 0 && isSpace(data[k]) {
			k--
		}
		ne := k + 1
		for k >= 0 && data[k] >= '0' && data[k] <= '9' {
			k--
		}
		ns := k + 1
		if ns == ne || ne == gs {
			continue
		}
		if k >= 0 && isRegular(data[k]) {
			continue
		}
		num, err1 := strconv.Atoi(string(data[ns:ne]))
		gen, err2 := strconv.Atoi(string(data[gs:ge]))
		if err1 != nil || err2 != nil || num > 1<<24 {
			continue
		}
		if _, ok := found[num]; !ok && len(found) >= d.lim.MaxObjects {
			return nil, limitErr("more than %d objects", d.lim.MaxObjects)
		}
		found[num] = entry{kind: 1, off: int64(ns), gen: gen, direct: true}
	}
	d.scanned = found
	return found, nil
}

// reconstruct rebuilds the object table by scanning and picks a trailer.
func (d *Doc) reconstruct() error {
	found, err := d.scanObjects()
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return malformed("no objects found")
	}
	old := d.trailer
	d.xref = map[int]entry{}
	for n, e := range found {
		d.xref[n] = e
	}
	d.cache = map[int]Object{}
	d.reconstructed = true
	d.startxref = -1
	// Objects inside object streams.
	nums := make([]int, 0, len(found))
	for n := range found {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	var xrefStm Dict
	for _, n := range nums {
		o, err := d.Resolve(Ref{Num: n, Gen: found[n].gen})
		if err != nil {
			continue
		}
		s, ok := o.(*Stream)
		if !ok {
			continue
		}
		switch t, _ := s.Dict["Type"].(Name); t {
		case "ObjStm":
			os, err := d.objStream(n)
			if err != nil {
				continue
			}
			for i, m := range os.index {
				if _, ok := found[m]; !ok {
					_ = d.add(m, entry{kind: 2, off: int64(n), idx: i})
				}
			}
		case "XRef":
			if _, ok := s.Dict["Root"]; ok {
				xrefStm = s.Dict
			}
		}
	}
	// Trailer: the last "trailer" dictionary with a /Root, else an xref
	// stream dictionary, else the old trailer, else find the catalog.
	d.trailer = nil
	for i := len(d.data); i > 0; {
		j := bytes.LastIndex(d.data[:i], []byte("trailer"))
		if j < 0 {
			break
		}
		i = j
		p := &parser{data: d.data, pos: j + len("trailer"), max: d.lim.MaxDepth}
		o, err := p.parseObject()
		if err != nil {
			continue
		}
		if t, ok := o.(Dict); ok {
			if _, ok := t["Root"]; ok {
				d.trailer = t
				break
			}
		}
	}
	if d.trailer == nil && xrefStm != nil {
		d.trailer = xrefStm
	}
	if d.trailer == nil && old != nil {
		d.trailer = old
	}
	if d.trailer != nil && d.rootOK() {
		return nil
	}
	t := Dict{}
	for k, v := range d.trailer {
		t[k] = v
	}
	d.trailer = t
	for i := len(nums) - 1; i >= 0; i-- {
		o, err := d.Resolve(Ref{Num: nums[i], Gen: found[nums[i]].gen})
		if err != nil {
			continue
		}
		if c, ok := o.(Dict); ok {
			if ty, _ := c["Type"].(Name); ty == "Catalog" {
				d.trailer["Root"] = Ref{Num: nums[i], Gen: found[nums[i]].gen}
				return nil
			}
		}
	}
	return malformed("no document catalog found")
}

// Resolve follows references until a direct object. A reference to a
// missing or free object is Null (as the standard says); cycles and broken
// objects are errors.
func (d *Doc) Resolve(o Object) (res Object, err error) {
	defer recoverErr(&err)
	for hops := 0; ; hops++ {
		r, ok := o.(Ref)
		if !ok {
			if o == nil {
				return Null{}, nil
			}
			return o, nil
		}
		if hops > 32 {
			return nil, malformed("reference chain longer than 32")
		}
		o, err = d.object(r)
		if err != nil {
			return nil, err
		}
	}
}

// object loads one indirect object (not following a resulting reference).
func (d *Doc) object(r Ref) (Object, error) {
	if o, ok := d.cache[r.Num]; ok {
		return o, nil
	}
	if d.busy[r.Num] {
		return nil, malformed("reference cycle through object %d", r.Num)
	}
	d.busy[r.Num] = true
	defer delete(d.busy, r.Num)
	if err := d.charge(64); err != nil {
		return nil, err
	}
	o, err := d.load(r)
	if err != nil {
		return nil, err
	}
	d.cache[r.Num] = o
	return o, nil
}

func (d *Doc) load(r Ref) (Object, error) {
	e, ok := d.xref[r.Num]
	if !ok || e.kind == 0 {
		return Null{}, nil
	}
	if e.kind == 2 {
		return d.fromObjStream(int(e.off), e.idx, r.Num)
	}
	o, err := d.parseAt(e.off, r.Num)
	if err == nil {
		return o, nil
	}
	if e.direct {
		return nil, err
	}
	// The offset is wrong: look the object up by scanning.
	found, serr := d.scanObjects()
	if serr != nil {
		return nil, serr
	}
	if se, ok := found[r.Num]; ok {
		return d.parseAt(se.off, r.Num)
	}
	return nil, err
}

func (d *Doc) parseAt(off int64, num int) (Object, error) {
	if off < 0 || off >= int64(len(d.data)) {
		return nil, malformed("object %d offset %d outside the file", num, off)
	}
	p := &parser{data: d.data, pos: int(off), max: d.lim.MaxDepth, resolveLength: d.resolveLength}
	ref, o, err := p.parseIndirect()
	if err != nil {
		return nil, err
	}
	if ref.Num != num {
		return nil, malformed("object %d not at its offset (found %d)", num, ref.Num)
	}
	if s, ok := o.(*Stream); ok && int64(len(s.Raw)) > d.lim.MaxStreamSize {
		return nil, limitErr("stream of %d bytes", len(s.Raw))
	}
	return o, nil
}

func (d *Doc) resolveLength(r Ref) (int64, bool) {
	o, err := d.Resolve(r)
	if err != nil {
		return 0, false
	}
	v, ok := o.(Int)
	return int64(v), ok && v >= 0
}

func (d *Doc) objStream(num int) (*objStream, error) {
	if os, ok := d.objstm[num]; ok {
		if os == nil {
			return nil, malformed("object stream %d is broken", num)
		}
		return os, nil
	}
	d.objstm[num] = nil
	o, err := d.Resolve(Ref{Num: num})
	if err != nil {
		return nil, err
	}
	s, ok := o.(*Stream)
	if !ok {
		return nil, malformed("object stream %d is not a stream", num)
	}
	data, err := d.decodeStream(s)
	if err != nil {
		return nil, err
	}
	n, _ := AsInt(s.Dict["N"])
	first, _ := AsInt(s.Dict["First"])
	if n < 0 || first < 0 || first > int64(len(data)) || n > int64(d.lim.MaxObjects) {
		return nil, malformed("object stream %d has a bad /N or /First", num)
	}
	os := &objStream{data: data, first: int(first), offs: map[int]int{}}
	p := &parser{data: data[:first], max: 1}
	for i := int64(0); i < n; i++ {
		p.skipSpace()
		a, ok1 := parseNumber(p.regularToken())
		p.skipSpace()
		b, ok2 := parseNumber(p.regularToken())
		an, i1 := a.(Int)
		bn, i2 := b.(Int)
		if !ok1 || !ok2 || !i1 || !i2 {
			break
		}
		os.offs[int(an)] = int(bn)
		os.index = append(os.index, int(an))
	}
	d.objstm[num] = os
	return os, nil
}

func (d *Doc) fromObjStream(stm, idx, num int) (Object, error) {
	os, err := d.objStream(stm)
	if err != nil {
		return nil, err
	}
	off, ok := os.offs[num]
	if !ok {
		if idx >= 0 && idx < len(os.index) {
			off = os.offs[os.index[idx]]
		} else {
			return Null{}, nil
		}
	}
	pos := os.first + off
	if pos < 0 || pos >= len(os.data) {
		return nil, malformed("object %d outside its object stream", num)
	}
	p := &parser{data: os.data, pos: pos, max: d.lim.MaxDepth}
	o, err := p.parseObject()
	if err != nil {
		return nil, err
	}
	if _, ok := o.(keyword); ok {
		return Null{}, nil
	}
	return o, nil
}

// Get returns the resolved value of key in dict (Null when absent).
func (d *Doc) Get(dict Dict, key Name) Object {
	o, err := d.Resolve(dict[key])
	if err != nil {
		return Null{}
	}
	return o
}

// GetDict returns the resolved value of key as a Dict (nil when it is not one).
func (d *Doc) GetDict(dict Dict, key Name) Dict {
	v, _ := AsDict(d.Get(dict, key))
	return v
}

// GetArray returns the resolved value of key as an Array (nil when it is not one).
func (d *Doc) GetArray(dict Dict, key Name) Array {
	v, _ := d.Get(dict, key).(Array)
	return v
}
