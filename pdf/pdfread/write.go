package pdfread

import (
	"sort"
	"strconv"
)

// AppendObject appends the PDF syntax of o to buf. Dictionary keys are
// written sorted (deterministic output); a *Stream is written with /Length
// set to len(Raw) and its raw data (filters unchanged). Strings made of
// printable ASCII are written literal, others hexadecimal.
func AppendObject(buf []byte, o Object) []byte {
	switch v := o.(type) {
	case nil, Null:
		return append(buf, "null"...)
	case Bool:
		if v {
			return append(buf, "true"...)
		}
		return append(buf, "false"...)
	case Int:
		return strconv.AppendInt(buf, int64(v), 10)
	case Real:
		return appendReal(buf, float64(v))
	case Name:
		return appendName(buf, v)
	case String:
		return appendString(buf, v)
	case Ref:
		buf = strconv.AppendInt(buf, int64(v.Num), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(v.Gen), 10)
		return append(buf, " R"...)
	case Array:
		buf = append(buf, '[')
		for i, x := range v {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = AppendObject(buf, x)
		}
		return append(buf, ']')
	case Dict:
		return appendDict(buf, v, nil)
	case *Stream:
		l := Int(len(v.Raw))
		buf = appendDict(buf, v.Dict, &l)
		buf = append(buf, "\nstream\n"...)
		buf = append(buf, v.Raw...)
		return append(buf, "\nendstream"...)
	case keyword:
		return append(buf, v...)
	}
	return append(buf, "null"...)
}

// AppendIndirect appends "num gen obj\n<o>\nendobj\n".
func AppendIndirect(buf []byte, r Ref, o Object) []byte {
	buf = strconv.AppendInt(buf, int64(r.Num), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(r.Gen), 10)
	buf = append(buf, " obj\n"...)
	buf = AppendObject(buf, o)
	return append(buf, "\nendobj\n"...)
}

func appendDict(buf []byte, d Dict, length *Int) []byte {
	keys := make([]string, 0, len(d)+1)
	for k := range d {
		if length != nil && k == "Length" {
			continue
		}
		keys = append(keys, string(k))
	}
	if length != nil {
		keys = append(keys, "Length")
	}
	sort.Strings(keys)
	buf = append(buf, "<<"...)
	for _, k := range keys {
		buf = appendName(buf, Name(k))
		buf = append(buf, ' ')
		if length != nil && k == "Length" {
			buf = AppendObject(buf, *length)
		} else {
			buf = AppendObject(buf, d[Name(k)])
		}
	}
	return append(buf, ">>"...)
}

func appendReal(buf []byte, f float64) []byte {
	if f != f || f > 1e15 || f < -1e15 { // NaN or out of PDF's range
		f = 0
	}
	s := strconv.AppendFloat(nil, f, 'f', -1, 64)
	return append(buf, s...)
}

const hexDigits = "0123456789ABCDEF"

func appendName(buf []byte, n Name) []byte {
	buf = append(buf, '/')
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c < 0x21 || c > 0x7e || c == '#' || isDelim(c) {
			buf = append(buf, '#', hexDigits[c>>4], hexDigits[c&15])
			continue
		}
		buf = append(buf, c)
	}
	return buf
}

func appendString(buf []byte, s String) []byte {
	printable := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			printable = false
			break
		}
	}
	if !printable {
		buf = append(buf, '<')
		for i := 0; i < len(s); i++ {
			buf = append(buf, hexDigits[s[i]>>4], hexDigits[s[i]&15])
		}
		return append(buf, '>')
	}
	buf = append(buf, '(')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '(' || c == ')' || c == '\\' {
			buf = append(buf, '\\')
		}
		buf = append(buf, c)
	}
	return append(buf, ')')
}
