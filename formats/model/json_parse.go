package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSONSyntaxError is a JSON syntax error at a byte offset of the input.
type JSONSyntaxError struct {
	Offset int
	Msg    string
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// limitError reports nesting deeper than MaxDepth.
type limitError struct{ offset int }

func (e *limitError) Error() string {
	return fmt.Sprintf("JSON nesting deeper than %d levels (offset %d)", MaxDepth, e.offset)
}

// jsonObject is a JSON object with its members in document order.
type jsonObject struct {
	keys []string
	vals []any // string, json.Number, bool, nil, *jsonObject, []any
}

// parseJSON parses exactly one JSON value (RFC 8259, UTF-8) into a tree:
// objects keep their member order, numbers stay text (json.Number). It is
// our own small parser because encoding/json's token API allocates per
// token and cannot bound the depth; nesting beyond MaxDepth is a
// *limitError, anything malformed a *JSONSyntaxError.
func parseJSON(data []byte) (any, error) {
	p := &jsonParser{s: data}
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.errf("invalid character %q after top-level value", p.s[p.i])
	}
	return v, nil
}

type jsonParser struct {
	s []byte
	i int
}

func (p *jsonParser) errf(format string, args ...any) error {
	return &JSONSyntaxError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errf("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		if depth >= MaxDepth {
			return nil, &limitError{offset: p.i}
		}
		return p.object(depth)
	case c == '[':
		if depth >= MaxDepth {
			return nil, &limitError{offset: p.i}
		}
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.lit("true")
	case c == 'f':
		return false, p.lit("false")
	case c == 'n':
		return nil, p.lit("null")
	default:
		return nil, p.errf("invalid character %q looking for a value", c)
	}
}

func (p *jsonParser) lit(w string) error {
	if len(p.s)-p.i < len(w) || string(p.s[p.i:p.i+len(w)]) != w {
		return p.errf("invalid literal, expected %s", w)
	}
	p.i += len(w)
	return nil
}

func (p *jsonParser) object(depth int) (any, error) {
	p.i++ // {
	obj := &jsonObject{keys: make([]string, 0, 8), vals: make([]any, 0, 8)}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return obj, nil
	}
	for {
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.errf("expected a string object key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("expected ':' after object key")
		}
		p.i++
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		obj.keys = append(obj.keys, k)
		obj.vals = append(obj.vals, v)
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of input in object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return obj, nil
		default:
			return nil, p.errf("expected ',' or '}' in object")
		}
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	p.i++ // [
	arr := []any{}
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return arr, nil
	}
	for {
		p.ws()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.ws()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of input in array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return arr, nil
		default:
			return nil, p.errf("expected ',' or ']' in array")
		}
	}
}

func (p *jsonParser) number() (any, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.errf("invalid number")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.errf("invalid number: digits expected after '.'")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errf("invalid number: digits expected in exponent")
		}
	}
	return json.Number(p.s[start:p.i]), nil
}

func (p *jsonParser) str() (string, error) {
	p.i++ // opening quote
	start := p.i
	// Fast path: no escapes, ASCII or valid UTF-8.
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			s := p.s[start:p.i]
			if !utf8.Valid(s) {
				return "", p.errf("invalid UTF-8 in string")
			}
			p.i++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errf("control character in string")
		}
		p.i++
	}
	var b strings.Builder
	b.Write(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			s := b.String()
			if !utf8.ValidString(s) {
				return "", p.errf("invalid UTF-8 in string")
			}
			return s, nil
		case c < 0x20:
			return "", p.errf("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++ // backslash
		if p.i >= len(p.s) {
			break
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
					p.i += 2
					r2, err := p.hex4()
					if err != nil {
						return "", err
					}
					r = utf16.DecodeRune(r, r2)
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			return "", p.errf("invalid escape '\\%c' in string", e)
		}
	}
	return "", p.errf("unexpected end of input in string")
}

func (p *jsonParser) hex4() (rune, error) {
	if len(p.s)-p.i < 4 {
		return 0, p.errf("invalid \\u escape")
	}
	v, err := strconv.ParseUint(string(p.s[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, p.errf("invalid \\u escape")
	}
	p.i += 4
	return rune(v), nil
}
