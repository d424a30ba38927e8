package xmltree

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

func encodeUTF16(s string, bigEndian, bom bool) []byte {
	var out []byte
	if bom {
		if bigEndian {
			out = append(out, 0xFE, 0xFF)
		} else {
			out = append(out, 0xFF, 0xFE)
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestEncodings(t *testing.T) {
	body := "<a b=\"é\">x😀\n<c/>€</a>"
	ref := treeEvents(mustParse(t, body))
	decl16 := `<?xml version="1.0" encoding="UTF-16"?>`
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"UTF-8 BOM", append([]byte("\xEF\xBB\xBF"), body...)},
		{"UTF-8 BOM and declaration", append([]byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>"), body...)},
		{"UTF-16LE BOM", encodeUTF16(body, false, true)},
		{"UTF-16BE BOM", encodeUTF16(body, true, true)},
		{"UTF-16LE BOM and declaration", encodeUTF16(decl16+body, false, true)},
		{"UTF-16BE without BOM", encodeUTF16(decl16+body, true, false)},
		{"UTF-16LE without BOM", encodeUTF16(decl16+body, false, false)},
		{"ISO-8859-1", []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a b=\"\xe9\">x\xf0\x9f\x98\x80\n<c/>\x80</a>")},
	} {
		d, err := Parse(tc.in, DefaultLimits())
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkInvariants(t, d)
		got := treeEvents(d)
		if tc.name == "ISO-8859-1" {
			// Each byte is one character in ISO-8859-1.
			if v := d.Value(d.Root() + 1); v != "é" {
				t.Errorf("ISO-8859-1 attribute = %q", v)
			}
			if sv := d.StringValue(d.Root()); sv != "x\u00f0\u009f\u0098\u0080\n\u0080" {
				t.Errorf("ISO-8859-1 text = %q", sv)
			}
			continue
		}
		if !slices.Equal(got, ref) {
			t.Errorf("%s: events %q, want %q", tc.name, got, ref)
		}
	}
}

func TestEncodingErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        []byte
		line, col int
		msg       string
	}{
		{"odd UTF-16 length", append(encodeUTF16("<a/>", false, true), 'x'), 1, 5, "odd number of bytes"},
		{"unpaired high surrogate", append(encodeUTF16("<a>", true, true), 0xD8, 0x00, 0x00, 'x'), 1, 4, "unpaired surrogate"},
		{"lone low surrogate", append(encodeUTF16("<a>\n", false, true), 0x00, 0xDC), 2, 1, "unpaired surrogate"},
		{"UTF-16 declaring UTF-8", encodeUTF16(`<?xml version="1.0" encoding="UTF-8"?><a/>`, false, true), 1, 31, "document is UTF-16"},
		{"UTF-8 BOM declaring ISO-8859-1", []byte("\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>"), 1, 31, "byte-order mark"},
		{"UTF-16 declaring US-ASCII", encodeUTF16(`<?xml version="1.0" encoding="US-ASCII"?><a/>`, true, true), 1, 31, "byte-order mark"},
		{"Shift_JIS", []byte(`<?xml version="1.0" encoding="Shift_JIS"?><a/>`), 1, 31, "unsupported encoding"},
		{"invalid UTF-8 after BOM", []byte("\xEF\xBB\xBF<a>\n\xc0\xaf</a>"), 2, 1, "invalid UTF-8"},
	} {
		_, err := Parse(tc.in, DefaultLimits())
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want *SyntaxError", tc.name, err)
			continue
		}
		if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%s: got %d:%d %s, want %d:%d ...%s...", tc.name, se.Line, se.Col, se.Msg, tc.line, tc.col, tc.msg)
		}
	}
}
