package xmltree

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// decode turns the raw input into UTF-8 text without a byte-order mark and
// returns the offset just after the XML declaration (0 if there is none).
// owned says the caller hands data over for good (ParseReader's private
// buffer): then the text shares its memory instead of copying it.
//
// Accepted: UTF-8 (with or without BOM), UTF-16 LE/BE (BOM, or "<?" encoded
// in UTF-16 without one), and UTF-8 compatible input declaring US-ASCII or
// ISO-8859-1. Any other declared encoding is a SyntaxError.
func decode(data []byte, owned bool) (string, int, error) {
	var src string
	utf16In, bom8 := false, false
	switch {
	case len(data) >= 2 && data[0] == 0xFE && data[1] == 0xFF:
		s, err := utf16ToUTF8(data[2:], true)
		if err != nil {
			return "", 0, err
		}
		src, utf16In = s, true
	case len(data) >= 2 && data[0] == 0xFF && data[1] == 0xFE:
		s, err := utf16ToUTF8(data[2:], false)
		if err != nil {
			return "", 0, err
		}
		src, utf16In = s, true
	case len(data) >= 4 && data[0] == 0 && data[1] == '<' && data[2] == 0 && data[3] == '?':
		s, err := utf16ToUTF8(data, true)
		if err != nil {
			return "", 0, err
		}
		src, utf16In = s, true
	case len(data) >= 4 && data[0] == '<' && data[1] == 0 && data[2] == '?' && data[3] == 0:
		s, err := utf16ToUTF8(data, false)
		if err != nil {
			return "", 0, err
		}
		src, utf16In = s, true
	default:
		if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
			data, bom8 = data[3:], true
		}
		if owned && len(data) > 0 {
			// Nobody else holds data and it is never written again, so
			// viewing it as a string is safe.
			src = unsafe.String(&data[0], len(data))
		} else {
			src = string(data) // the one copy of the input the Document keeps
		}
	}
	declEnd, enc, encOff, err := parseDecl(src)
	if err != nil {
		return "", 0, err
	}
	switch strings.ToUpper(enc) {
	case "":
	case "UTF-8", "UTF8":
		if utf16In {
			return "", 0, posErr(src, encOff, "encoding declaration says %s but the document is UTF-16", enc)
		}
	case "UTF-16", "UTF-16LE", "UTF-16BE", "UTF16":
		if !utf16In {
			return "", 0, posErr(src, encOff, "encoding declaration says %s but the document is not UTF-16 encoded", enc)
		}
	case "US-ASCII", "ASCII":
		if utf16In || bom8 {
			return "", 0, posErr(src, encOff, "encoding declaration says %s but the document has a Unicode byte-order mark", enc)
		}
		for i := 0; i < len(src); i++ {
			if src[i] >= utf8.RuneSelf {
				return "", 0, posErr(src, i, "byte 0x%02X is not US-ASCII", src[i])
			}
		}
	case "ISO-8859-1", "ISO_8859-1", "LATIN1", "LATIN-1":
		if utf16In || bom8 {
			return "", 0, posErr(src, encOff, "encoding declaration says %s but the document has a Unicode byte-order mark", enc)
		}
		src = latin1ToUTF8(src)
	default:
		return "", 0, posErr(src, encOff, "unsupported encoding %q (accepted: UTF-8, UTF-16, US-ASCII, ISO-8859-1)", enc)
	}
	return src, declEnd, nil
}

// utf16ToUTF8 transcodes UTF-16 input (without BOM).
func utf16ToUTF8(b []byte, bigEndian bool) (string, error) {
	out := make([]byte, 0, len(b)+len(b)/2)
	for i := 0; i < len(b); i += 2 {
		if i+1 >= len(b) {
			return "", posErr(string(out), len(out), "invalid UTF-16: odd number of bytes")
		}
		u := rune(b[i])<<8 | rune(b[i+1])
		if !bigEndian {
			u = rune(b[i+1])<<8 | rune(b[i])
		}
		switch {
		case utf16.IsSurrogate(u):
			if u >= 0xDC00 || i+3 >= len(b) {
				return "", posErr(string(out), len(out), "invalid UTF-16: unpaired surrogate")
			}
			u2 := rune(b[i+2])<<8 | rune(b[i+3])
			if !bigEndian {
				u2 = rune(b[i+3])<<8 | rune(b[i+2])
			}
			r := utf16.DecodeRune(u, u2)
			if r == utf8.RuneError {
				return "", posErr(string(out), len(out), "invalid UTF-16: unpaired surrogate")
			}
			out = utf8.AppendRune(out, r)
			i += 2
		default:
			out = utf8.AppendRune(out, u)
		}
	}
	if len(out) == 0 {
		return "", nil
	}
	// out is owned here and never written again, so viewing it as a string
	// is safe and saves a second copy of the document.
	return unsafe.String(&out[0], len(out)), nil
}

func latin1ToUTF8(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			n++
		}
	}
	if n == 0 {
		return s
	}
	out := make([]byte, 0, len(s)+n)
	for i := 0; i < len(s); i++ {
		out = utf8.AppendRune(out, rune(s[i]))
	}
	return string(out)
}

// parseDecl parses an XML declaration at the start of src. It returns the
// offset after it (0 if absent), the declared encoding and its offset.
func parseDecl(src string) (end int, enc string, encOff int, err error) {
	if len(src) < 6 || !strings.HasPrefix(src, "<?xml") || charClass[src[5]]&cSpace == 0 {
		return 0, "", 0, nil
	}
	i := 5
	seen := 0 // 1 version, 2 encoding, 3 standalone
	for {
		ws := i
		for i < len(src) && charClass[src[i]]&cSpace != 0 {
			i++
		}
		if strings.HasPrefix(src[i:], "?>") {
			if seen == 0 {
				return 0, "", 0, posErr(src, i, "XML declaration without version")
			}
			return i + 2, enc, encOff, nil
		}
		if i >= len(src) {
			return 0, "", 0, posErr(src, i, "unterminated XML declaration")
		}
		if ws == i {
			return 0, "", 0, posErr(src, i, "expected whitespace in XML declaration")
		}
		nameStart := i
		for i < len(src) && src[i] >= 'a' && src[i] <= 'z' {
			i++
		}
		name := src[nameStart:i]
		for i < len(src) && charClass[src[i]]&cSpace != 0 {
			i++
		}
		if i >= len(src) || src[i] != '=' {
			return 0, "", 0, posErr(src, i, "expected '=' in XML declaration")
		}
		i++
		for i < len(src) && charClass[src[i]]&cSpace != 0 {
			i++
		}
		if i >= len(src) || (src[i] != '"' && src[i] != '\'') {
			return 0, "", 0, posErr(src, i, "expected a quoted value in XML declaration")
		}
		q := src[i]
		vStart := i + 1
		k := strings.IndexByte(src[vStart:], q)
		if k < 0 {
			return 0, "", 0, posErr(src, i, "unterminated value in XML declaration")
		}
		val := src[vStart : vStart+k]
		i = vStart + k + 1
		switch {
		case name == "version" && seen == 0:
			if !validVersion(val) {
				return 0, "", 0, posErr(src, vStart, "unsupported XML version %q", clip(val))
			}
			seen = 1
		case name == "encoding" && seen == 1:
			if !validEncName(val) {
				return 0, "", 0, posErr(src, vStart, "invalid encoding name %q", clip(val))
			}
			enc, encOff, seen = val, vStart, 2
		case name == "standalone" && (seen == 1 || seen == 2):
			if val != "yes" && val != "no" {
				return 0, "", 0, posErr(src, vStart, "standalone must be \"yes\" or \"no\"")
			}
			seen = 3
		default:
			return 0, "", 0, posErr(src, nameStart, "unexpected %q in XML declaration", clip(name))
		}
	}
}

func validVersion(v string) bool {
	if len(v) < 3 || v[0] != '1' || v[1] != '.' {
		return false
	}
	for i := 2; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

func validEncName(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !alpha {
			return false
		}
		if !alpha && !(c >= '0' && c <= '9') && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}
