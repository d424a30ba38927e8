package xmltree

import (
	"errors"
	"strings"
	"testing"
)

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		line, col int
		msg       string
	}{
		{"empty input", "", 1, 1, "no root element"},
		{"only whitespace", " \n ", 2, 2, "no root element"},
		{"unclosed element", "<a>", 1, 4, "<a> (line 1) is not closed"},
		{"mismatched end tag", "<a></b>", 1, 6, "end tag </b> does not match start tag <a>"},
		{"mismatched end tag prefix of name", "<ab></a>", 1, 7, "end tag </a> does not match"},
		{"mismatch on later line", "<a>\n<b>\n</a>", 3, 3, "does not match start tag <b> (line 2)"},
		{"end tag without start", "</a>", 1, 1, "no element is open"},
		{"two roots", "<a/><b/>", 1, 5, "exactly one root element"},
		{"text before root", "text<a/>", 1, 1, "content before the root element"},
		{"text after root", "<a>x</a>trailing", 1, 9, "content after the root element"},
		{"DTD", "<!DOCTYPE a><a/>", 1, 1, "DTD is not allowed"},
		{"DTD with internal subset", "<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>", 2, 1, "DTD is not allowed"},
		{"undefined entity", "<a>&foo;</a>", 1, 4, "undefined entity &foo;"},
		{"external-looking entity in attribute", `<a b="&ext;"/>`, 1, 7, "undefined entity &ext;"},
		{"unterminated reference", "<a>&#x41</a>", 1, 4, "missing ';'"},
		{"NUL character reference", "<a>&#0;</a>", 1, 4, "not a legal XML character"},
		{"surrogate character reference", "<a>&#xD800;</a>", 1, 4, "not a legal XML character"},
		{"FFFE character reference", "<a>&#xFFFE;</a>", 1, 4, "not a legal XML character"},
		{"out of range character reference", "<a>&#x110000;</a>", 1, 4, "out of range"},
		{"bad digit in character reference", "<a>&#12a;</a>", 1, 4, "invalid character reference"},
		{"capital X in character reference", "<a>&#X41;</a>", 1, 4, "invalid character reference"},
		{"empty character reference", "<a>&#;</a>", 1, 4, "invalid character reference"},
		{"empty hex character reference", "<a>&#x;</a>", 1, 4, "invalid character reference"},
		{"empty reference", "<a>&;</a>", 1, 4, "undefined entity"},
		{"duplicate attribute", `<a b="1" b="2"/>`, 1, 10, "duplicate attribute b"},
		{"duplicate expanded attribute", `<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>`, 1, 36, "duplicate attribute q:x"},
		{"duplicate namespace declaration", `<a xmlns:p="u" xmlns:p="v"/>`, 1, 16, "duplicate attribute xmlns:p"},
		{"duplicate attribute on a later line", "<a x=\"1\"\n y=\"2\"\n x=\"3\"/>", 3, 2, "duplicate attribute x"},
		{"'<' in attribute value", `<a b="<"/>`, 1, 7, "'<' is not allowed in an attribute value"},
		{"unquoted attribute", `<a b=1/>`, 1, 6, "expected a quoted value"},
		{"missing '='", `<a b "1"/>`, 1, 6, "expected '=' after attribute name b"},
		{"attributes without space", `<a b="1"c="2"/>`, 1, 9, "expected whitespace"},
		{"unterminated attribute value", `<a b="1/>`, 1, 6, "unexpected end of input in attribute value"},
		{"']]>' in text", "<a>]]></a>", 1, 4, "']]>' is not allowed"},
		{"invalid UTF-8 in text", "<a>\xff</a>", 1, 4, "invalid UTF-8"},
		{"invalid UTF-8 in attribute", "<a b=\"\xc3\"/>", 1, 7, "invalid UTF-8"},
		{"invalid UTF-8 in name", "<a\xff/>", 1, 3, "invalid UTF-8"},
		{"control character in text", "<a>\x01</a>", 1, 4, "illegal character U+0001"},
		{"control character in attribute", "<a b=\"\x1f\"/>", 1, 7, "illegal character U+001F"},
		{"U+FFFF in text", "<a>\uffff</a>", 1, 4, "illegal character U+FFFF"},
		{"control character in comment", "<a><!--\x02--></a>", 1, 8, "illegal character U+0002"},
		{"undeclared element prefix", "<p:a/>", 1, 2, `undeclared namespace prefix "p"`},
		{"undeclared attribute prefix", `<a p:b="1"/>`, 1, 4, `undeclared namespace prefix "p"`},
		{"prefix out of scope", `<a><b xmlns:p="u"/><p:c/></a>`, 1, 21, `undeclared namespace prefix "p"`},
		{"empty prefix binding", `<a xmlns:p=""/>`, 1, 4, "must not be bound to the empty URI"},
		{"rebinding xml", `<a xmlns:xml="urn:x"/>`, 1, 4, "prefix xml must not be bound"},
		{"binding the xml namespace", `<a xmlns:x="http://www.w3.org/XML/1998/namespace"/>`, 1, 4, "only the prefix xml"},
		{"declaring xmlns", `<a xmlns:xmlns="urn:x"/>`, 1, 4, "prefix xmlns must not be declared"},
		{"binding the xmlns namespace", `<a xmlns="http://www.w3.org/2000/xmlns/"/>`, 1, 4, "no prefix may be bound"},
		{"element with xmlns prefix", `<xmlns:a/>`, 1, 2, "must not use the prefix xmlns"},
		{"two colons", `<a:b:c/>`, 1, 5, "unexpected ':'"},
		{"leading colon", `<:a/>`, 1, 2, "unexpected ':'"},
		{"trailing colon", `<a: />`, 1, 4, "must be followed by a name start character"},
		{"digit name start", `<1a/>`, 1, 2, "invalid name start character"},
		{"space after '<'", `< a/>`, 1, 2, "expected a name"},
		{"'--' in comment", "<a><!-- a -- b --></a>", 1, 11, "'--' is not allowed inside a comment"},
		{"comment ending in '--->'", "<a><!-- a ---></a>", 1, 11, "'--' is not allowed inside a comment"},
		{"unterminated comment", "<a><!-- a </a>", 1, 4, "unterminated comment"},
		{"unterminated CDATA", "<a><![CDATA[x</a>", 1, 4, "unterminated CDATA section"},
		{"CDATA outside root", "<![CDATA[x]]><a/>", 1, 1, "CDATA section outside the root element"},
		{"unknown '<!'", "<a><!ELEMENT a ANY></a>", 1, 4, "unexpected '<!'"},
		{"XML declaration twice", `<?xml version="1.0"?><?xml version="1.0"?><a/>`, 1, 22, "XML declaration is only allowed at the very start"},
		{"XML declaration after whitespace", ` <?xml version="1.0"?><a/>`, 1, 2, "XML declaration is only allowed at the very start"},
		{"XML declaration without version", `<?xml encoding="UTF-8"?><a/>`, 1, 7, "unexpected \"encoding\""},
		{"XML version 2.0", `<?xml version="2.0"?><a/>`, 1, 16, "unsupported XML version"},
		{"bad standalone", `<?xml version="1.0" standalone="maybe"?><a/>`, 1, 33, "standalone must be"},
		{"unsupported encoding", `<?xml version="1.0" encoding="EBCDIC"?><a/>`, 1, 31, `unsupported encoding "EBCDIC"`},
		{"UTF-16 declared in UTF-8 input", `<?xml version="1.0" encoding="UTF-16"?><a/>`, 1, 31, "not UTF-16 encoded"},
		{"non-ASCII in US-ASCII document", "<?xml version=\"1.0\" encoding=\"US-ASCII\"?><a>\xc3\xa9</a>", 1, 45, "not US-ASCII"},
		{"PI target with colon", "<a><?p:x y?></a>", 1, 6, "must not contain ':'"},
		{"PI without space", "<a><?pi/x?></a>", 1, 8, "expected whitespace or '?>'"},
		{"unterminated PI", "<a><?pi x</a>", 1, 4, "unterminated processing instruction"},
		{"'/' without '>'", "<a/ >", 1, 4, "expected '>' after '/'"},
		{"garbage in end tag", "<a></a x>", 1, 8, "expected '>' to close end tag"},
		{"end of input after '<'", "<a><", 1, 4, "unexpected end of input after '<'"},
		{"end of input in start tag", "<a b='1'", 1, 9, "unexpected end of input in start tag"},
		{"column counts characters", "<é>&bad;</é>", 1, 4, "undefined entity"},
		{"CRLF is one line end", "<a>\r\n<b></a>", 2, 6, "does not match"},
		{"lone CR is a line end", "<a>\r<b></a>", 2, 6, "does not match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in), DefaultLimits())
			if err == nil {
				t.Fatalf("Parse(%q) succeeded with %d nodes, want a syntax error", tc.in, d.Len())
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T %v, want *SyntaxError", tc.in, err, err)
			}
			if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("Parse(%q):\n got %d:%d %s\nwant %d:%d ...%s...", tc.in, se.Line, se.Col, se.Msg, tc.line, tc.col, tc.msg)
			}
		})
	}
}

// TestWellFormedEdgeCases lists inputs that look odd but are well-formed.
func TestWellFormedEdgeCases(t *testing.T) {
	for _, in := range []string{
		"<a/>",
		"<a></a >",
		"<a\n\tb = 'x' \n/>",
		`<?xml version="1.0"?><a/>`,
		`<?xml version='1.1' encoding='utf-8' standalone='yes' ?><a/>`,
		`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`,
		"<!-- before --><?pi data?><a/><!-- after -->\n",
		"<a><?xml-stylesheet href='s.xsl'?></a>",
		"<a>]]</a>",
		"<a>]></a>",
		"<a b='\"' c=\"'\"/>",
		"<a><!----></a>",
		"<a><![CDATA[]]></a>",
		"<a><![CDATA[<&]]]></a>",
		"<é:ü xmlns:é='urn:x' é:ß='1'/>",
		"<xmlns/>",
		`<a xmlns=""/>`,
		`<a xml:lang="en"/>`,
		"<a>&#x10FFFF;&#9;&#xA;&#13;</a>",
	} {
		d, err := Parse([]byte(in), DefaultLimits())
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		checkInvariants(t, d)
	}
}
