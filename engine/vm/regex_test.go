package vm

import (
	"errors"
	"testing"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

func TestCompileRegex(t *testing.T) {
	for _, c := range []struct {
		pat, flags, in string
		want           bool
	}{
		{`^\d{3}$`, "", "123", true}, {`^\d{3}$`, "", "12a", false}, {`^\d$`, "", "٣", true},
		{`^\D$`, "", "a", true}, {`^[\d-[3]]$`, "", "3", false}, {`^[\d-[3]]$`, "", "4", true},
		{`^[^a-c]$`, "", "d", true}, {`^[^a-c]$`, "", "b", false},
		{`^[a-z-[aeiou]]+$`, "", "xyz", true}, {`^[a-z-[aeiou]]+$`, "", "xaz", false},
		{`^[\w-[\d]]+$`, "", "abc", true}, {`^[\w-[\d]]+$`, "", "ab1", false},
		{`^[\s\d]+$`, "", " 1 2", true}, {`^\S+$`, "", "a b", false},
		{`^\p{L}+$`, "", "Ωé", true}, {`^\P{L}+$`, "", "1-", true}, {`^\p{IsGreek}+$`, "", "Ω", true},
		{`^a.c$`, "", "a\nc", false}, {`^a.c$`, "s", "a\nc", true}, {`^a.c$`, "", "a\u2028c", true},
		{`^b`, "m", "a\nb", true}, {`^b`, "", "a\nb", false}, {`a$`, "", "a\n", false},
		{`A B`, "x", "AB", true}, {`[ ]`, "x", " ", true}, {`abc`, "i", "ABC", true},
		{`^[\-+]?\d+$`, "", "-5", true}, {`^\$\^\.\*$`, "", "$^.*", true}, {`^\\$`, "", `\`, true},
		{`(?:ab)+`, "", "abab", true}, {`^[a-]$`, "", "-", true}, {`^[-a]$`, "", "-", true},
		{`^\i\c*$`, "", "_x1.-", true}, {`^\I$`, "", "1", true}, {`^\C$`, "", " ", true},
		{`^\n\r\t$`, "", "\n\r\t", true}, {`^a{2,}$`, "", "aaa", true}, {`^a{0,1}$`, "", "aa", false},
		// XRechnung's let-bound patterns (compiled at run time from variables)
		{`(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$`, "", "#SKONTO#TAGE=7#PROZENT=2.00#", true},
		{`(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$`, "", "#SKONTO#TAGE=7#PROZENT=2.0#", false},
		{`^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$`, "", "a.b@example.de", true},
		{`^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$`, "", "a b@example.de", false},
		{`.*([0-9].*){3,}.*`, "", "+49", false}, {`.*([0-9].*){3,}.*`, "", "+49 123", true},
		{`^([a-zA-Z])([a-zA-Z0-9+.-])+:.*`, "", "https://x", true}, {`^([a-zA-Z])([a-zA-Z0-9+.-])+:.*`, "", "1http:", false},
	} {
		re, err := CompileRegex(c.pat, c.flags)
		if err != nil {
			t.Errorf("%q/%s: %v", c.pat, c.flags, err)
			continue
		}
		if got := re.MatchString(c.in); got != c.want {
			t.Errorf("%q/%s on %q = %v, want %v (RE2 %s)", c.pat, c.flags, c.in, got, c.want, re)
		}
	}
	for _, c := range []struct{ pat, flags, code string }{
		{`(a)\1`, "", xdm.ErrRegex}, {`[a`, "", xdm.ErrRegex}, {`a)`, "", xdm.ErrRegex}, {`(a`, "", xdm.ErrRegex},
		{`\p{IsNoSuchBlock}`, "", xdm.ErrRegex}, {`\p{Xx}`, "", xdm.ErrRegex}, {`\b`, "", xdm.ErrRegex},
		{`a{1001}`, "", xdm.ErrRegex}, {`(?i)a`, "", xdm.ErrRegex}, {`a`, "g", xdm.ErrRegexFlags},
		{`[z-a]`, "", xdm.ErrRegex}, {`a{2,1}`, "", xdm.ErrRegex}, {`\`, "", xdm.ErrRegex},
	} {
		_, err := CompileRegex(c.pat, c.flags)
		var xe *xdm.Error
		if !errors.As(err, &xe) || xe.Code != c.code {
			t.Errorf("%q/%s: got %v, want %s", c.pat, c.flags, err, c.code)
		}
	}
}

func TestTranslateReplacement(t *testing.T) {
	for _, c := range []struct {
		rep    string
		groups int
		want   string
		ok     bool
	}{
		{"x", 0, "x", true}, {"$1", 1, "${1}", true}, {"$12", 1, "${1}2", true}, {"$12", 12, "${12}", true},
		{`\$`, 0, "$$", true}, {`\\`, 0, `\`, true}, {"$", 0, "", false}, {`\n`, 0, "", false}, {"$a", 1, "", false},
		{"$2", 1, "", true},
	} {
		got, err := TranslateReplacement(c.rep, c.groups)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("%q (%d groups) = %q, %v; want %q ok=%v", c.rep, c.groups, got, err, c.want, c.ok)
		}
	}
}

// FuzzTranslateRegex: the translator never panics, and every failure is a
// typed *xdm.Error.
func FuzzTranslateRegex(f *testing.F) {
	for _, s := range []string{`^\d+$`, `[a-z-[aeiou]]`, `\p{IsBasicLatin}`, `(a|b)*c{2,3}?`, `[^\s\w]`, `\i\c*`} {
		f.Add(s, "")
		f.Add(s, "imsx")
	}
	f.Fuzz(func(t *testing.T, pat, flags string) {
		if _, err := CompileRegex(pat, flags); err != nil {
			var xe *xdm.Error
			if !errors.As(err, &xe) {
				t.Fatalf("%q/%q: untyped error %T %v", pat, flags, err, err)
			}
		}
	})
}
