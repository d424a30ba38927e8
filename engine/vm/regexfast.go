package vm

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Regex is a compiled XPath regular expression: Go's RE2 program, which
// defines every answer, and for the shapes the rule sets call most (per
// amount, identifier and code of a document) cheaper routes to the same
// answers:
//   - a pattern that is a literal string (`\.`, `:`, `#TXD#`): matches,
//     tokenize and replace are strings.Contains, Split and ReplaceAll;
//   - a pattern that is one character class, or one class repeated with
//     `+` (`\s`, `[\s]+`, XRechnung's `([ \n\r\t\s])`): tokenize, and
//     replace by a text without group references, are a scan over the runes;
//   - a pattern that matches a few fixed strings (`(\r?\n)`): tokenize
//     cuts at the first of them, in regexp's order of preference, that
//     starts at each position;
//   - any other pattern without case folding, line anchors or word
//     boundaries: matches runs a DFA built when the pattern is compiled
//     (regexDFA), one table lookup per character instead of Go's
//     backtracker or one-pass machine and its per-call set-up.
//
// A Regex is immutable once built and safe for concurrent use.
type Regex struct {
	re *regexp.Regexp
	// empty: the pattern matches the zero-length string (tokenize and
	// replace refuse such patterns, FORX0003).
	empty bool
	lit   string
	isLit bool
	sep   *runeClass // non-nil: the pattern is one class (sepPlus: one or more)
	plus  bool
	// alts: the pattern matches exactly these strings, in the order of
	// regexp's preference (XRechnung's (\r?\n): "\r\n", "\n").
	alts []string
	dfa  *regexDFA
}

func newRegex(re *regexp.Regexp) *Regex {
	r := &Regex{re: re, empty: re.MatchString("")}
	// Compiled exactly as regexp.Compile compiles it. (Not LiteralPrefix:
	// it calls `^b$` a complete literal "b".)
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return r
	}
	tree = tree.Simplify()
	// A literal with U+FFFD would also match an invalid byte of the input
	// in regexp, not in a comparison of bytes.
	if tree.Op == syntax.OpLiteral && tree.Flags&syntax.FoldCase == 0 && len(tree.Rune) > 0 && !slices.Contains(tree.Rune, utf8.RuneError) {
		r.lit, r.isLit = string(tree.Rune), true
	} else {
		r.sep, r.plus = classSplitter(tree)
		if r.sep == nil && !r.empty {
			r.alts, _ = literalStrings(tree)
		}
	}
	if prog, err := syntax.Compile(tree); err == nil && !r.isLit {
		r.dfa = buildDFA(prog)
	}
	return r
}

// String is the RE2 form of the pattern.
func (r *Regex) String() string { return r.re.String() }

// NumSubexp is the number of parenthesised groups.
func (r *Regex) NumSubexp() int { return r.re.NumSubexp() }

// MatchString reports whether s contains a match.
func (r *Regex) MatchString(s string) bool {
	switch {
	case r.isLit:
		return strings.Contains(s, r.lit)
	case r.dfa != nil:
		return r.dfa.match(s)
	}
	return r.re.MatchString(s)
}

// Split is regexp.Regexp.Split(s, -1) for a pattern that does not match
// the empty string, and a non-empty s.
func (r *Regex) Split(s string) []string {
	switch {
	case r.isLit:
		return strings.Split(s, r.lit)
	case r.sep != nil:
		return r.sep.split(s, r.plus)
	case r.alts != nil:
		return splitAlts(s, r.alts)
	}
	return r.re.Split(s, -1)
}

// maxLiteralStrings bounds literalStrings' expansion.
const maxLiteralStrings = 16

// literalStrings returns the strings a pattern built of literals,
// concatenation, alternation, ? and small classes matches, in the order
// regexp prefers them at one position (leftmost-first: the choices in
// order, a greedy ? taking its operand first); ok is false for any other
// pattern, case folding, U+FFFD (see newRegex) or more than
// maxLiteralStrings strings.
func literalStrings(t *syntax.Regexp) (_ []string, ok bool) {
	switch t.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		if t.Flags&syntax.FoldCase != 0 || slices.Contains(t.Rune, utf8.RuneError) {
			return nil, false
		}
		return []string{string(t.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(t.Rune); i += 2 {
			for r := t.Rune[i]; r <= t.Rune[i+1]; r++ {
				if len(out) == maxLiteralStrings || r == utf8.RuneError || !utf8.ValidRune(r) {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture:
		return literalStrings(t.Sub[0])
	case syntax.OpQuest:
		sub, ok := literalStrings(t.Sub[0])
		if !ok || len(sub) == maxLiteralStrings {
			return nil, false
		}
		if t.Flags&syntax.NonGreedy != 0 {
			return append([]string{""}, sub...), true
		}
		return append(sub, ""), true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range t.Sub {
			ss, ok := literalStrings(sub)
			if !ok || len(out)+len(ss) > maxLiteralStrings {
				return nil, false
			}
			out = append(out, ss...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range t.Sub {
			ss, ok := literalStrings(sub)
			if !ok || len(out)*len(ss) > maxLiteralStrings {
				return nil, false
			}
			next := make([]string, 0, len(out)*len(ss))
			for _, a := range out {
				for _, b := range ss {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// splitAlts is regexp.Split(s, -1) for a pattern that matches exactly
// alts (none empty), in preference order: at the leftmost position where
// one of them starts, the first that does is the separator. Positions are
// bytes: a string of alts starts with a byte no UTF-8 sequence continues
// with, so it can only start where regexp's runes do.
func splitAlts(s string, alts []string) []string {
	// The positions where an alternative may start are found by their
	// first bytes (IndexByte, IndexAny: the text between separators is
	// skipped at once, not tried byte by byte).
	var first []byte
	for _, a := range alts {
		if a[0] >= utf8.RuneSelf {
			first = nil // IndexAny reads runes: no skipping
			break
		}
		if !bytes.Contains(first, []byte{a[0]}) {
			first = append(first, a[0])
		}
	}
	var out []string
	beg := 0
	for i := 0; i < len(s); {
		var k int
		switch len(first) {
		case 0:
		case 1:
			k = strings.IndexByte(s[i:], first[0])
		default:
			k = strings.IndexAny(s[i:], string(first))
		}
		if k < 0 {
			break
		}
		i += k
		n := 0
		for _, a := range alts {
			if strings.HasPrefix(s[i:], a) {
				n = len(a)
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		out = append(out, s[beg:i])
		i += n
		beg = i
	}
	return append(out, s[beg:])
}

// ReplaceAll is regexp.Regexp.ReplaceAllString(s, tmpl), tmpl in Go's
// Expand syntax.
func (r *Regex) ReplaceAll(s, tmpl string) string {
	if !strings.Contains(tmpl, "$") {
		switch {
		case r.isLit:
			return strings.ReplaceAll(s, r.lit, tmpl)
		case r.sep != nil:
			return r.sep.replace(s, tmpl, r.plus)
		}
	}
	return r.re.ReplaceAllString(s, tmpl)
}

// runeClass is a set of runes given as sorted, disjoint inclusive ranges
// (syntax.Regexp.Rune of an OpCharClass), with a table for ASCII.
type runeClass struct {
	ascii  [utf8.RuneSelf]bool
	ranges []rune
}

func newRuneClass(ranges []rune) *runeClass {
	c := &runeClass{ranges: slices.Clone(ranges)}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < utf8.RuneSelf; r++ {
			c.ascii[r] = true
		}
	}
	return c
}

func (c *runeClass) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r]
	}
	// The first range whose upper bound is >= r.
	lo, hi := 0, len(c.ranges)/2
	for lo < hi {
		m := (lo + hi) / 2
		if c.ranges[2*m+1] < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(c.ranges)/2 && c.ranges[2*lo] <= r
}

// classSplitter recognises a pattern that is one character class, or one
// class with `+` (captures around either are irrelevant to Split).
func classSplitter(t *syntax.Regexp) (*runeClass, bool) {
	for t.Op == syntax.OpCapture {
		t = t.Sub[0]
	}
	plus := false
	if t.Op == syntax.OpPlus && t.Flags&syntax.NonGreedy == 0 {
		plus, t = true, t.Sub[0]
	}
	for t.Op == syntax.OpCapture {
		t = t.Sub[0]
	}
	if t.Op != syntax.OpCharClass || len(t.Rune) == 0 {
		return nil, false
	}
	return newRuneClass(t.Rune), plus
}

// match returns the first match of c in s at or after from, [i, j): one
// rune of the class or, plus, a maximal run of them (what greedy `+`
// takes); i = -1 when there is none.
func (c *runeClass) match(s string, from int, plus bool) (i, j int) {
	// (An invalid byte decodes to U+FFFD of width 1, as regexp reads it.)
	for i = from; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if !c.has(r) {
			i += n
			continue
		}
		for j = i + n; plus && j < len(s); j += n {
			if r, n = rune(s[j]), 1; r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[j:])
			}
			if !c.has(r) {
				break
			}
		}
		return i, j
	}
	return -1, -1
}

// replace puts tmpl (no group references) in place of every match of c
// in s, what a leftmost-first regexp.ReplaceAllString does for the class;
// s itself when there is none.
func (c *runeClass) replace(s, tmpl string, plus bool) string {
	i, j := c.match(s, 0, plus)
	if i < 0 {
		return s
	}
	var out strings.Builder
	out.Grow(len(s))
	beg := 0
	for ; i >= 0; i, j = c.match(s, beg, plus) {
		out.WriteString(s[beg:i])
		out.WriteString(tmpl)
		beg = j
	}
	out.WriteString(s[beg:])
	return out.String()
}

// split cuts s at every match of c, the pieces between in order, empty
// ones included: what a leftmost-first regexp.Split finds for the class.
func (c *runeClass) split(s string, plus bool) []string {
	var out []string
	beg := 0
	for i, j := c.match(s, 0, plus); i >= 0; i, j = c.match(s, beg, plus) {
		out = append(out, s[beg:i])
		beg = j
	}
	return append(out, s[beg:])
}
