package xsd

import (
	"strings"
	"testing"
)

func TestScanProlog(t *testing.T) {
	long := "<!--" + strings.Repeat("x", maxPrologScan) + "-->"
	for _, c := range []struct {
		name string
		doc  []byte
		want prologVerdict
	}{
		{"plain root", []byte("<a/>"), prologNoDoctype},
		{"decl and root", []byte(`<?xml version="1.0" encoding="UTF-8"?><a/>`), prologNoDoctype},
		{"doctype", []byte("<!DOCTYPE a><a/>"), prologDoctype},
		{"bom decl doctype", []byte("\xEF\xBB\xBF<?xml version='1.0'?>\n<!DOCTYPE a><a/>"), prologDoctype},
		{"comments and PIs first", []byte("<?xml version='1.0'?><!-- <a> --><?p <a>?>\r\n\t<!DOCTYPE a><a/>"), prologDoctype},
		{"doctype text inside comment", []byte("<!-- <!DOCTYPE a> --><a/>"), prologNoDoctype},
		{"doctype text inside root", []byte("<a><![CDATA[<!DOCTYPE a>]]></a>"), prologNoDoctype},
		{"doctype after root", []byte("<a/><!DOCTYPE a>"), prologNoDoctype},
		{"latin-1 declared", []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE a><a/>`), prologDoctype},
		{"windows-1252 declared", []byte(`<?xml version="1.0" encoding='windows-1252'?><a/>`), prologNoDoctype},
		{"utf-16 declared in 8-bit stream", []byte(`<?xml version="1.0" encoding="UTF-16"?><a/>`), prologUnknown},
		{"ebcdic declared", []byte(`<?xml version="1.0" encoding="IBM037"?><a/>`), prologUnknown},
		{"ucs-4", []byte{0, 0, 0, '<', 0, 0, 0, 'a'}, prologUnknown},
		{"ebcdic sniffed", []byte{0x4C, 0x6F, 0xA7, 0x94}, prologUnknown},
		{"utf-16le bom", utf16LE("<!DOCTYPE a><a/>", true), prologDoctype},
		{"utf-16be bom no doctype", utf16BE("<?xml version='1.0'?><a/>", true), prologNoDoctype},
		{"utf-16le sniffed", utf16LE("<?xml version='1.0'?><!DOCTYPE a><a/>", false), prologDoctype},
		{"utf-16 non-ascii comment", utf16LE("<!-- é€ --><!DOCTYPE a><a/>", true), prologDoctype},
		{"unterminated comment", []byte("<!-- x"), prologNoDoctype},
		{"unterminated decl", []byte("<?xml version='1.0'"), prologNoDoctype},
		{"empty", nil, prologNoDoctype},
		{"whitespace only", []byte(" \n"), prologNoDoctype},
		{"prolog longer than the scan limit", []byte(long + "<!DOCTYPE a><a/>"), prologUnknown},
		{"lowercase doctype is not a doctype", []byte("<!doctype a><a/>"), prologNoDoctype},
		{"odd utf-16 length", append(utf16LE("<!DOCTYPE", true), 'x'), prologDoctype},
	} {
		if got := scanProlog(c.doc); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDeclaredEncoding(t *testing.T) {
	for decl, want := range map[string]string{
		` version="1.0" encoding="UTF-8"`:  "UTF-8",
		` version='1.0' encoding = 'x-y' `: "x-y",
		` version="1.0"`:                   "",
		` encoding=UTF-8`:                  "",
		` encoding="unterminated`:          "",
	} {
		if got := declaredEncoding(decl); got != want {
			t.Errorf("declaredEncoding(%q) = %q, want %q", decl, got, want)
		}
	}
}
