package pdfread

import (
	"bytes"
	"strconv"
)

// Byte classes of PDF syntax (ISO 32000-1 7.2.2).
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func isRegular(c byte) bool { return !isSpace(c) && !isDelim(c) }

// parser reads objects from data starting at pos.
type parser struct {
	data  []byte
	pos   int
	depth int
	max   int // max depth
	// resolveLength resolves an indirect /Length of a stream; nil means
	// indirect lengths are ignored (the stream end is searched for).
	resolveLength func(Ref) (int64, bool)
}

// keyword is a bare token that is not an object (obj, endobj, stream, R, operators).
type keyword string

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if isSpace(c) {
			p.pos++
			continue
		}
		if c == '%' {
			for p.pos < len(p.data) && p.data[p.pos] != '\n' && p.data[p.pos] != '\r' {
				p.pos++
			}
			continue
		}
		return
	}
}

// token reads the next regular token (number or keyword) without parsing.
func (p *parser) regularToken() []byte {
	start := p.pos
	for p.pos < len(p.data) && isRegular(p.data[p.pos]) {
		p.pos++
	}
	return p.data[start:p.pos]
}

// parseObject reads one object. A bare keyword is returned as keyword.
// It recognises "n g R" references.
func (p *parser) parseObject() (Object, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, malformed("unexpected end of data")
	}
	c := p.data[p.pos]
	switch c {
	case '/':
		p.pos++
		return p.parseName(), nil
	case '(':
		p.pos++
		return p.parseLiteral()
	case '<':
		if p.pos+1 < len(p.data) && p.data[p.pos+1] == '<' {
			p.pos += 2
			return p.parseDict()
		}
		p.pos++
		return p.parseHex()
	case '[':
		p.pos++
		return p.parseArray()
	case ']', '>', ')', '{', '}':
		p.pos++
		return keyword(string(c)), nil
	}
	tok := p.regularToken()
	if len(tok) == 0 {
		p.pos++
		return keyword(string(c)), nil
	}
	if n, ok := parseNumber(tok); ok {
		if i, isInt := n.(Int); isInt && i >= 0 {
			// Look ahead for "gen R".
			save := p.pos
			p.skipSpace()
			gtok := p.regularToken()
			if g, ok := parseNumber(gtok); ok {
				if gi, ok := g.(Int); ok && gi >= 0 {
					p.skipSpace()
					if p.pos < len(p.data) && p.data[p.pos] == 'R' && (p.pos+1 == len(p.data) || !isRegular(p.data[p.pos+1])) {
						p.pos++
						return Ref{Num: int(i), Gen: int(gi)}, nil
					}
				}
			}
			p.pos = save
		}
		return n, nil
	}
	switch string(tok) {
	case "true":
		return Bool(true), nil
	case "false":
		return Bool(false), nil
	case "null":
		return Null{}, nil
	}
	return keyword(tok), nil
}

func parseNumber(tok []byte) (Object, bool) {
	if len(tok) == 0 {
		return nil, false
	}
	c := tok[0]
	if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.') {
		return nil, false
	}
	if bytes.IndexByte(tok, '.') < 0 {
		if i, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
			return Int(i), true
		}
	}
	s := string(tok)
	// Tolerate "--5" and "5-" forms some writers produce.
	for len(s) > 1 && (s[0] == '-' || s[0] == '+') && (s[1] == '-' || s[1] == '+') {
		s = s[1:]
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return Real(f), true
	}
	// Accept a leading number ("12abc" is not a number).
	return nil, false
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func (p *parser) parseName() Name {
	start := p.pos
	for p.pos < len(p.data) && isRegular(p.data[p.pos]) {
		p.pos++
	}
	raw := p.data[start:p.pos]
	if bytes.IndexByte(raw, '#') < 0 {
		return Name(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			h, ok1 := unhex(raw[i+1])
			l, ok2 := unhex(raw[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return Name(out)
}

func (p *parser) parseLiteral() (Object, error) {
	var out []byte
	depth := 1
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		p.pos++
		switch c {
		case '(':
			depth++
			out = append(out, c)
		case ')':
			depth--
			if depth == 0 {
				return String(out), nil
			}
			out = append(out, c)
		case '\\':
			if p.pos >= len(p.data) {
				return String(out), nil
			}
			e := p.data[p.pos]
			p.pos++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r':
				if p.pos < len(p.data) && p.data[p.pos] == '\n' {
					p.pos++
				}
			case '\n':
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '7'; k++ {
						v = v*8 + int(p.data[p.pos]-'0')
						p.pos++
					}
					out = append(out, byte(v))
				} else {
					out = append(out, e)
				}
			}
		case '\r':
			// EOL in a literal is read as \n.
			if p.pos < len(p.data) && p.data[p.pos] == '\n' {
				p.pos++
			}
			out = append(out, '\n')
		default:
			out = append(out, c)
		}
	}
	return String(out), nil // unterminated: tolerated at end of data
}

func (p *parser) parseHex() (Object, error) {
	var out []byte
	var hi byte
	half := false
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		p.pos++
		if c == '>' {
			break
		}
		v, ok := unhex(c)
		if !ok {
			continue
		}
		if half {
			out = append(out, hi<<4|v)
			half = false
		} else {
			hi = v
			half = true
		}
	}
	if half {
		out = append(out, hi<<4)
	}
	return String(out), nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > p.max {
		return limitErr("objects nested deeper than %d", p.max)
	}
	return nil
}

func (p *parser) parseArray() (Object, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	arr := Array{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return arr, nil // tolerated
		}
		if p.data[p.pos] == ']' {
			p.pos++
			return arr, nil
		}
		o, err := p.parseObject()
		if err != nil {
			return nil, err
		}
		if k, ok := o.(keyword); ok {
			if k == "endobj" || k == "obj" || k == "stream" || k == ">" {
				return arr, nil // broken array: stop here
			}
			continue
		}
		arr = append(arr, o)
	}
}

func (p *parser) parseDict() (Object, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	d := Dict{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return d, nil
		}
		if p.data[p.pos] == '>' {
			p.pos++
			if p.pos < len(p.data) && p.data[p.pos] == '>' {
				p.pos++
			}
			return d, nil
		}
		if p.data[p.pos] != '/' {
			// Garbage where a key should be: skip one token.
			o, err := p.parseObject()
			if err != nil {
				return nil, err
			}
			if k, ok := o.(keyword); ok && (k == "endobj" || k == "stream" || k == "obj") {
				p.pos -= len(k)
				return d, nil
			}
			continue
		}
		p.pos++
		key := p.parseName()
		p.skipSpace()
		if p.pos < len(p.data) && p.data[p.pos] == '>' {
			d[key] = Null{}
			continue
		}
		v, err := p.parseObject()
		if err != nil {
			return nil, err
		}
		if k, ok := v.(keyword); ok {
			if k == "endobj" || k == "stream" || k == "obj" {
				p.pos -= len(k)
				return d, nil
			}
			continue
		}
		if _, isNull := v.(Null); isNull {
			continue // a null value is the same as an absent key
		}
		d[key] = v
	}
}

// parseIndirect parses "num gen obj <object> [stream ... endstream] endobj"
// at p.pos and returns the header and the object.
func (p *parser) parseIndirect() (Ref, Object, error) {
	p.skipSpace()
	n, ok := parseNumber(p.regularToken())
	num, isInt := n.(Int)
	if !ok || !isInt {
		return Ref{}, nil, malformed("no object header at offset %d", p.pos)
	}
	p.skipSpace()
	g, ok := parseNumber(p.regularToken())
	gen, isInt := g.(Int)
	if !ok || !isInt {
		return Ref{}, nil, malformed("no object header at offset %d", p.pos)
	}
	p.skipSpace()
	if string(p.regularToken()) != "obj" {
		return Ref{}, nil, malformed("no 'obj' keyword at offset %d", p.pos)
	}
	ref := Ref{Num: int(num), Gen: int(gen)}
	o, err := p.parseObject()
	if err != nil {
		return ref, nil, err
	}
	if k, ok := o.(keyword); ok {
		if k == "endobj" {
			return ref, Null{}, nil
		}
		return ref, Null{}, nil
	}
	d, isDict := o.(Dict)
	if !isDict {
		return ref, o, nil
	}
	save := p.pos
	p.skipSpace()
	if !bytes.HasPrefix(p.data[p.pos:], []byte("stream")) {
		p.pos = save
		return ref, d, nil
	}
	p.pos += len("stream")
	// The keyword is followed by CRLF or LF (tolerate CR alone, spaces).
	for p.pos < len(p.data) && (p.data[p.pos] == ' ' || p.data[p.pos] == '\t') {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '\r' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '\n' {
		p.pos++
	}
	start := p.pos
	length := int64(-1)
	switch l := d["Length"].(type) {
	case Int:
		length = int64(l)
	case Ref:
		if p.resolveLength != nil {
			if v, ok := p.resolveLength(l); ok {
				length = v
			}
		}
	}
	end := -1
	if length >= 0 && int64(start)+length <= int64(len(p.data)) {
		e := start + int(length)
		q := e
		for q < len(p.data) && isSpace(p.data[q]) {
			q++
		}
		if bytes.HasPrefix(p.data[q:], []byte("endstream")) {
			end = e
			p.pos = q + len("endstream")
		}
	}
	if end < 0 {
		// Wrong or missing /Length: search for endstream.
		i := bytes.Index(p.data[start:], []byte("endstream"))
		if i < 0 {
			end = len(p.data)
			p.pos = end
		} else {
			end = start + i
			p.pos = end + len("endstream")
			// Strip the EOL before endstream.
			if end > start && p.data[end-1] == '\n' {
				end--
			}
			if end > start && p.data[end-1] == '\r' {
				end--
			}
		}
	}
	return ref, &Stream{Dict: d, Raw: p.data[start:end]}, nil
}
