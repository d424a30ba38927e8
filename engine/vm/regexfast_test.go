package vm

import (
	"slices"
	"strings"
	"testing"
)

// regexSamples are patterns of the rule sets (BR-FR's decimal checks,
// XRechnung's Skonto, e-mail and URI patterns, Peppol's and BR-FR's
// tokenize separators) and the shapes the fast routes must refuse.
var regexSamples = []struct{ pat, flags string }{
	{`^[-]?\d{1,19}(\.\d{1,2})?$`, ""}, {`^\d{1,4}(\.\d{1,2})?$`, ""}, {`\.`, ""}, {`:`, ""},
	{`#TXD#`, ""}, {`\s`, ""}, {`[\s]+`, ""}, {`\s+`, ""}, {`(\r?\n)`, ""}, {`#.+#`, ""},
	{`^20\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$`, ""}, {`^[A-Za-z0-9+\-_/]+$`, ""}, {` `, ""},
	{`^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$`, ""}, {`^\s*\n`, ""}, {`^$`, ""}, {`$`, ""}, {`^`, ""},
	{`(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$`, ""},
	{`^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$`, ""}, {`.*([0-9].*){3,}.*`, ""}, {`^([a-zA-Z])([a-zA-Z0-9+.-])+:.*`, ""},
	{`urn:fdc:peppol.eu:2017:poacc:billing:([0-9]{2}):1.0`, ""}, {`a|b$|^c`, ""}, {`a*`, ""}, {`x*$`, ""},
	{`abc`, "i"}, {`^b`, "m"}, {`a$`, "m"}, {`.`, "s"}, {`(a)`, ""}, {`[a-c]+?`, ""}, {`\p{L}+`, ""},
	{`[^a]`, ""}, {`\d`, ""}, {`([\s])`, ""}, {`-`, ""}, {`^b$`, ""}, {`^abc`, ""}, {`abc$`, ""}, {`^-`, ""},
	{`(b)`, ""}, {`bc`, "i"}, {`a|ab`, ""}, {`(a|ab)(c|bcd)`, ""}, {`\r?\n`, ""}, {`x??y`, ""}, {`[ab]c?`, ""},
	{`(é|e)\.`, ""}, {"[\uFFFDa]", ""}, {`([ \n\r\t\s])`, ""}, {`[^\d]+`, ""},
}

var regexInputs = []string{
	"", "0", "-1", "12.34", "12.345", "1234567890123456789", "12345678901234567890", "-.5", "٣٤.٥",
	"20240131", "20241301", "20240230", "AB-12_x/", "a b", "DE12345678901234567890", "de1234",
	"#SKONTO#TAGE=7#PROZENT=2.00#", "x\n#SKONTO#TAGE=7#PROZENT=2.00#", "#SKONTO#TAGE=7#PROZENT=2.0#",
	"a.b@example.de", "a b@example.de", "+49", "+49 123", "https://x", "1http:", "ABC", "abc",
	"a\nb", "a\n", "\n", "b\n", "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0", "c", "xb", "ca",
	" \t a \r\n b  ", "::a::", "a\r\nb\nc\r\r\n", "abcd", "aab", "xxy", "acbcc", "é.e.\xffe.", "#TXD#x#TXD#", "1.2.3", "é€\uFFFD\xff", "aaa", "xxx", "x-y-z",
}

// TestRegexFastRoutes: for every sample pattern and input, the fast routes
// answer exactly what Go's regexp answers; and the patterns the rule sets
// call most do take a fast route (a change that silently falls back to
// regexp fails here).
func TestRegexFastRoutes(t *testing.T) {
	for _, c := range regexSamples {
		r, err := CompileRegex(c.pat, c.flags)
		if err != nil {
			t.Fatalf("%q: %v", c.pat, err)
		}
		for _, in := range regexInputs {
			checkRegexRoutes(t, r, in)
		}
	}
	for _, c := range []struct {
		pat   string
		route string
	}{
		{`^[-]?\d{1,19}(\.\d{1,2})?$`, "dfa"}, {`^20\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$`, "dfa"},
		{`(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$`, "dfa"},
		{`^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$`, "dfa"}, {`.*([0-9].*){3,}.*`, "dfa"},
		{`\.`, "literal"}, {`#TXD#`, "literal"}, {`:`, "literal"},
		{`\s`, "class"}, {`[\s]+`, "class+"}, {`([\s])`, "class"}, {`([ \n\r\t\s])`, "class"}, {`(\r?\n)`, "strings"}, {`a|ab`, "strings"},
	} {
		r, _ := CompileRegex(c.pat, "")
		got := "regexp"
		switch {
		case r.isLit:
			got = "literal"
		case r.sep != nil && r.plus:
			got = "class+"
		case r.sep != nil:
			got = "class"
		case r.alts != nil:
			got = "strings"
		case r.dfa != nil:
			got = "dfa"
		}
		if got != c.route && !(c.route == "dfa" && r.dfa != nil) {
			t.Errorf("%q takes route %s, want %s", c.pat, got, c.route)
		}
	}
	for _, p := range []string{`abc`, `^b`} {
		if r, _ := CompileRegex(p, map[string]string{"abc": "i", "^b": "m"}[p]); r.dfa != nil || r.isLit {
			t.Errorf("%q: case folding and line anchors must keep regexp", p)
		}
	}
}

// checkRegexRoutes compares the Regex's answers with regexp's on s.
func checkRegexRoutes(t *testing.T, r *Regex, s string) {
	t.Helper()
	if got, want := r.MatchString(s), r.re.MatchString(s); got != want {
		t.Fatalf("%q MatchString(%q) = %v, regexp says %v", r, s, got, want)
	}
	if r.empty != r.re.MatchString("") {
		t.Fatalf("%q: empty = %v", r, r.empty)
	}
	if r.empty || s == "" {
		return
	}
	if got, want := r.Split(s), r.re.Split(s, -1); !slices.Equal(got, want) {
		t.Fatalf("%q Split(%q) = %q, regexp says %q", r, s, got, want)
	}
	for _, tmpl := range []string{"", "_", "${0}|", "$$"} {
		if got, want := r.ReplaceAll(s, tmpl), r.re.ReplaceAllString(s, tmpl); got != want {
			t.Fatalf("%q ReplaceAll(%q, %q) = %q, regexp says %q", r, s, tmpl, got, want)
		}
	}
}

// FuzzRegexFastRoutes: for any XPath pattern and input, the literal, class
// and DFA routes agree with Go's regexp on matches, tokenize and replace.
func FuzzRegexFastRoutes(f *testing.F) {
	for i, c := range regexSamples {
		f.Add(c.pat, c.flags, regexInputs[i%len(regexInputs)])
		f.Add(c.pat, c.flags, "a\nb") // the anchors against a line break
	}
	f.Fuzz(func(t *testing.T, pat, flags, s string) {
		if len(pat) > 200 || strings.Contains(pat, "{") && len(pat) > 40 {
			return // bounded repetition counts only make the compile slow
		}
		r, err := CompileRegex(pat, flags)
		if err != nil {
			return
		}
		checkRegexRoutes(t, r, s)
	})
}

// BenchmarkRegexMatch: BR-FR's amount check (matches with a DFA) and
// tokenize on whitespace (the class route), against Go's regexp.
func BenchmarkRegexMatch(b *testing.B) {
	dec, _ := CompileRegex(`^[-]?\d{1,19}(\.\d{1,2})?$`, "")
	ws, _ := CompileRegex(`[\s]+`, "")
	text := strings.Repeat("AN AQ 0002 0007\n", 8)
	b.Run("dfa", func(b *testing.B) {
		for b.Loop() {
			dec.MatchString("1234567.89")
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			dec.re.MatchString("1234567.89")
		}
	})
	b.Run("split-class", func(b *testing.B) {
		for b.Loop() {
			ws.Split(text)
		}
	})
	b.Run("split-regexp", func(b *testing.B) {
		for b.Loop() {
			ws.re.Split(text, -1)
		}
	})
	// XRechnung's tokenize of the payment terms into lines (BR-DE-18).
	nl, _ := CompileRegex(`(\r?\n)`, "")
	terms := strings.Repeat("Zahlbar innerhalb von 30 Tagen ohne Abzug.\r\n#SKONTO#TAGE=7#PROZENT=2.00#\n", 6)
	b.Run("split-strings", func(b *testing.B) {
		for b.Loop() {
			nl.Split(terms)
		}
	})
}

// BenchmarkRegexCompile: the DFA's construction on top of regexp's
// compilation, for a rule-set pattern and a hostile one the bounds cut.
func BenchmarkRegexCompile(b *testing.B) {
	for _, p := range []string{`^20\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$`, `[\i\c\p{L}\p{N}]{300}[^\i]{300}`} {
		b.Run(p[:8], func(b *testing.B) {
			for b.Loop() {
				if _, err := CompileRegex(p, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
