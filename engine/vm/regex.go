package vm

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine/xdm"
)

// CompileRegex translates an XPath 2.0 (XML Schema) regular expression with
// its flags to Go RE2 syntax and compiles it. Differences handled:
//   - \d is any Unicode decimal digit (\p{Nd}); \w, \s, \i, \c and their
//     negations follow XML Schema; \p{IsBlock} block names are supported for
//     a fixed table of blocks;
//   - character-class subtraction [a-z-[aeiou]] is computed as explicit ranges;
//   - "." does not match \n or \r unless flag s;
//   - ^ and $ anchor the whole string unless flag m;
//   - flag x removes whitespace outside character classes;
//   - back-references and anything else RE2 cannot express fail with
//     FORX0002 (bad flags: FORX0001), never a silent mismatch.
func CompileRegex(pattern, flags string) (*Regex, error) {
	src, err := TranslateRegex(pattern, flags)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, xdm.Errorf(xdm.ErrRegex, "invalid regular expression %q: %v", pattern, err)
	}
	return newRegex(re), nil
}

// TranslateRegex returns the RE2 form of an XPath regular expression.
func TranslateRegex(pattern, flags string) (string, error) {
	var dotAll, multi, icase, extended bool
	for _, c := range flags {
		switch c {
		case 's':
			dotAll = true
		case 'm':
			multi = true
		case 'i':
			icase = true
		case 'x':
			extended = true
		default:
			return "", xdm.Errorf(xdm.ErrRegexFlags, "invalid regular expression flags %q", flags)
		}
	}
	t := &reTranslator{src: pattern, extended: extended}
	var sb strings.Builder
	if multi || icase {
		sb.WriteString("(?")
		if multi {
			sb.WriteByte('m')
		}
		if icase {
			sb.WriteByte('i')
		}
		sb.WriteByte(')')
	}
	depth := 0
	for t.i < len(t.src) {
		r := t.next()
		switch r {
		case ' ', '\t', '\n', '\r':
			if extended {
				continue
			}
			sb.WriteString(regexp.QuoteMeta(string(r)))
		case '\\':
			set, lit, err := t.escape(false)
			if err != nil {
				return "", err
			}
			if set != nil {
				sb.WriteString(set.String())
			} else {
				sb.WriteString(regexp.QuoteMeta(string(lit)))
			}
		case '[':
			set, err := t.class()
			if err != nil {
				return "", err
			}
			sb.WriteString(set.String())
		case '.':
			if dotAll {
				sb.WriteString(`(?s:.)`)
			} else {
				sb.WriteString(`[^\n\r]`)
			}
		case '(':
			depth++
			if t.peek() == '?' {
				if !strings.HasPrefix(t.src[t.i:], "?:") {
					return "", t.errf("unsupported group construct")
				}
				t.i += 2
				sb.WriteString("(?:")
				continue
			}
			sb.WriteByte('(')
		case ')':
			depth--
			if depth < 0 {
				return "", t.errf("unbalanced parenthesis")
			}
			sb.WriteByte(')')
		case '{':
			q, err := t.quantifier()
			if err != nil {
				return "", err
			}
			sb.WriteString(q)
		case '}', ']':
			return "", t.errf("unescaped %q", r)
		case '^', '$', '|', '*', '+', '?':
			sb.WriteRune(r)
		default:
			sb.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if depth != 0 {
		return "", t.errf("unbalanced parenthesis")
	}
	return sb.String(), nil
}

type reTranslator struct {
	src      string
	i        int
	extended bool
}

func (t *reTranslator) errf(format string, args ...any) error {
	return xdm.Errorf(xdm.ErrRegex, "invalid regular expression %q at %d: %s", t.src, t.i, fmt.Sprintf(format, args...))
}

func (t *reTranslator) next() rune {
	r, n := utf8.DecodeRuneInString(t.src[t.i:])
	t.i += n
	return r
}

func (t *reTranslator) peek() rune {
	if t.i >= len(t.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(t.src[t.i:])
	return r
}

func (t *reTranslator) quantifier() (string, error) {
	end := strings.IndexByte(t.src[t.i:], '}')
	if end < 0 {
		return "", t.errf("unterminated quantifier")
	}
	body := t.src[t.i : t.i+end]
	t.i += end + 1
	lo, hi, comma := strings.Cut(body, ",")
	if !allDigits(lo) || (comma && hi != "" && !allDigits(hi)) {
		return "", t.errf("invalid quantifier {%s}", body)
	}
	n, _ := strconv.Atoi(lo)
	if n > 1000 {
		return "", t.errf("quantifier {%s} too large for RE2", body)
	}
	if hi != "" {
		m, _ := strconv.Atoi(hi)
		if m > 1000 || m < n {
			return "", t.errf("invalid quantifier {%s}", body)
		}
	}
	return "{" + body + "}", nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// escape parses after a backslash: a class escape (set) or a single
// character (lit).
func (t *reTranslator) escape(inClass bool) (*runeSet, rune, error) {
	if t.i >= len(t.src) {
		return nil, 0, t.errf("trailing backslash")
	}
	r := t.next()
	switch r {
	case 'n':
		return nil, '\n', nil
	case 'r':
		return nil, '\r', nil
	case 't':
		return nil, '\t', nil
	case '\\', '|', '.', '?', '*', '+', '(', ')', '{', '}', '-', '[', ']', '^', '$':
		return nil, r, nil
	case 'd':
		return digitSet(), 0, nil
	case 'D':
		return digitSet().negate(), 0, nil
	case 's':
		return spaceSet(), 0, nil
	case 'S':
		return spaceSet().negate(), 0, nil
	case 'w':
		return wordSet(), 0, nil
	case 'W':
		return wordSet().negate(), 0, nil
	case 'i':
		return initialSet(), 0, nil
	case 'I':
		return initialSet().negate(), 0, nil
	case 'c':
		return nameCharSet(), 0, nil
	case 'C':
		return nameCharSet().negate(), 0, nil
	case 'p', 'P':
		if t.peek() != '{' {
			return nil, 0, t.errf(`\%c without {name}`, r)
		}
		end := strings.IndexByte(t.src[t.i:], '}')
		if end < 0 {
			return nil, 0, t.errf("unterminated \\%c{", r)
		}
		name := t.src[t.i+1 : t.i+end]
		t.i += end + 1
		set, err := t.property(name)
		if err != nil {
			return nil, 0, err
		}
		if r == 'P' {
			set = set.negate()
		}
		return set, 0, nil
	}
	if r >= '0' && r <= '9' {
		return nil, 0, t.errf("back-reference \\%c is not supported (RE2)", r)
	}
	return nil, 0, t.errf("invalid escape \\%c", r)
}

func (t *reTranslator) property(name string) (*runeSet, error) {
	if strings.HasPrefix(name, "Is") {
		b, ok := unicodeBlocks[name[2:]]
		if !ok {
			return nil, t.errf("unsupported block name %q", name)
		}
		return &runeSet{r: []rng{{b[0], b[1]}}}, nil
	}
	tab, ok := unicode.Categories[name]
	if !ok {
		return nil, t.errf("unknown category %q", name)
	}
	return setOfTable(tab), nil
}

// class parses a character class expression after '['.
func (t *reTranslator) class() (*runeSet, error) {
	neg := false
	if t.peek() == '^' {
		neg = true
		t.i++
	}
	set := &runeSet{}
	first := true
	for {
		if t.i >= len(t.src) {
			return nil, t.errf("unterminated character class")
		}
		r := t.next()
		switch {
		case r == ']' && !first:
			if neg {
				set = set.negate()
			}
			return set, nil
		case r == '-' && t.peek() == '[':
			t.i++
			sub, err := t.class()
			if err != nil {
				return nil, err
			}
			if t.peek() != ']' {
				return nil, t.errf("subtraction must end the class")
			}
			t.i++
			if neg {
				set = set.negate()
			}
			return set.subtract(sub), nil
		case r == '[':
			return nil, t.errf("unescaped '[' in character class")
		}
		first = false
		var lo rune
		if r == '\\' {
			s, lit, err := t.escape(true)
			if err != nil {
				return nil, err
			}
			if s != nil {
				set.add(s.r...)
				continue
			}
			lo = lit
		} else {
			lo = r
		}
		// range?
		if t.peek() == '-' && t.i+1 < len(t.src) && t.src[t.i+1] != ']' && t.src[t.i+1] != '[' {
			t.i++
			hr := t.next()
			hi := hr
			if hr == '\\' {
				s, lit, err := t.escape(true)
				if err != nil {
					return nil, err
				}
				if s != nil {
					return nil, t.errf("class escape as range end")
				}
				hi = lit
			}
			if hi < lo {
				return nil, t.errf("invalid range %c-%c", lo, hi)
			}
			set.add(rng{lo, hi})
			continue
		}
		set.add(rng{lo, lo})
	}
}

type rng struct{ lo, hi rune }

// runeSet is a set of code points as sorted, merged ranges.
type runeSet struct{ r []rng }

func (s *runeSet) add(rs ...rng) {
	s.r = append(s.r, rs...)
	s.norm()
}

func (s *runeSet) norm() {
	slices.SortFunc(s.r, func(a, b rng) int { return int(a.lo - b.lo) })
	out := s.r[:0]
	for _, x := range s.r {
		if n := len(out); n > 0 && x.lo <= out[n-1].hi+1 {
			if x.hi > out[n-1].hi {
				out[n-1].hi = x.hi
			}
			continue
		}
		out = append(out, x)
	}
	s.r = out
}

func (s *runeSet) negate() *runeSet {
	out := &runeSet{}
	next := rune(0)
	for _, x := range s.r {
		if x.lo > next {
			out.r = append(out.r, rng{next, x.lo - 1})
		}
		next = x.hi + 1
	}
	if next <= unicode.MaxRune {
		out.r = append(out.r, rng{next, unicode.MaxRune})
	}
	return out
}

func (s *runeSet) subtract(o *runeSet) *runeSet {
	neg := o.negate()
	out := &runeSet{}
	for _, a := range s.r {
		for _, b := range neg.r {
			lo, hi := max(a.lo, b.lo), min(a.hi, b.hi)
			if lo <= hi {
				out.r = append(out.r, rng{lo, hi})
			}
		}
	}
	out.norm()
	return out
}

func (s *runeSet) String() string {
	if len(s.r) == 0 {
		return `[^\x{0}-\x{10FFFF}]`
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for _, x := range s.r {
		fmt.Fprintf(&sb, `\x{%x}`, x.lo)
		if x.hi != x.lo {
			fmt.Fprintf(&sb, `-\x{%x}`, x.hi)
		}
	}
	sb.WriteByte(']')
	return sb.String()
}

func setOfTable(tabs ...*unicode.RangeTable) *runeSet {
	s := &runeSet{}
	for _, tab := range tabs {
		for _, r := range tab.R16 {
			if r.Stride == 1 {
				s.r = append(s.r, rng{rune(r.Lo), rune(r.Hi)})
				continue
			}
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				s.r = append(s.r, rng{c, c})
			}
		}
		for _, r := range tab.R32 {
			if r.Stride == 1 {
				s.r = append(s.r, rng{rune(r.Lo), rune(r.Hi)})
				continue
			}
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				s.r = append(s.r, rng{c, c})
			}
		}
	}
	s.norm()
	return s
}

func spaceSet() *runeSet {
	return &runeSet{r: []rng{{'\t', '\n'}, {'\r', '\r'}, {' ', ' '}}}
}

// The large class-escape sets are computed once and shared read-only:
// runeSet operations never modify their receiver's ranges in place except
// add, which is only called on sets owned by the caller.
var (
	digitSetOnce = sync.OnceValue(func() *runeSet { return setOfTable(unicode.Nd) })
	wordSetOnce  = sync.OnceValue(func() *runeSet { return setOfTable(unicode.P, unicode.Z, unicode.C).negate() })
	initialOnce  = sync.OnceValue(func() *runeSet {
		s := setOfTable(unicode.L)
		s.add(rng{'_', '_'}, rng{':', ':'})
		return s
	})
	nameCharOnce = sync.OnceValue(func() *runeSet {
		s := setOfTable(unicode.L, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Lm)
		s.add(rng{'.', '.'}, rng{'-', '-'}, rng{'_', '_'}, rng{':', ':'}, rng{0xB7, 0xB7})
		return s
	})
)

func digitSet() *runeSet    { return digitSetOnce() }
func wordSet() *runeSet     { return wordSetOnce() }
func initialSet() *runeSet  { return initialOnce() }
func nameCharSet() *runeSet { return nameCharOnce() }

// unicodeBlocks is a read-only table of the Unicode block names supported
// in \p{IsX}.
var unicodeBlocks = map[string][2]rune{
	"BasicLatin":                  {0x0000, 0x007F},
	"Latin-1Supplement":           {0x0080, 0x00FF},
	"LatinExtended-A":             {0x0100, 0x017F},
	"LatinExtended-B":             {0x0180, 0x024F},
	"IPAExtensions":               {0x0250, 0x02AF},
	"SpacingModifierLetters":      {0x02B0, 0x02FF},
	"CombiningDiacriticalMarks":   {0x0300, 0x036F},
	"Greek":                       {0x0370, 0x03FF},
	"GreekandCoptic":              {0x0370, 0x03FF},
	"Cyrillic":                    {0x0400, 0x04FF},
	"Armenian":                    {0x0530, 0x058F},
	"Hebrew":                      {0x0590, 0x05FF},
	"Arabic":                      {0x0600, 0x06FF},
	"LatinExtendedAdditional":     {0x1E00, 0x1EFF},
	"GreekExtended":               {0x1F00, 0x1FFF},
	"GeneralPunctuation":          {0x2000, 0x206F},
	"SuperscriptsandSubscripts":   {0x2070, 0x209F},
	"CurrencySymbols":             {0x20A0, 0x20CF},
	"LetterlikeSymbols":           {0x2100, 0x214F},
	"NumberForms":                 {0x2150, 0x218F},
	"Arrows":                      {0x2190, 0x21FF},
	"MathematicalOperators":       {0x2200, 0x22FF},
	"BoxDrawing":                  {0x2500, 0x257F},
	"CJKUnifiedIdeographs":        {0x4E00, 0x9FFF},
	"PrivateUseArea":              {0xE000, 0xF8FF},
	"AlphabeticPresentationForms": {0xFB00, 0xFB4F},
	"HalfwidthandFullwidthForms":  {0xFF00, 0xFFEF},
	"Specials":                    {0xFFF0, 0xFFFF},
}

const maxCachedRegexes = 256

// regexArg returns the compiled regex of a call: the one compiled at compile
// time for a literal pattern, else from the program's cache.
func (f *frame) regexArg(e *Expr, pat, flags xdm.Sequence, fn string) (*Regex, error) {
	if re := e.Regex(); re != nil {
		return re, nil
	}
	p, err := f.strArg(pat, fn)
	if err != nil {
		return nil, err
	}
	fl := ""
	if flags != nil {
		if fl, err = f.strArg(flags, fn); err != nil {
			return nil, err
		}
	}
	key := p + "\x00" + fl
	if re, ok := f.prog.re.Load(key); ok {
		return re.(*Regex), nil
	}
	re, err := CompileRegex(p, fl)
	if err != nil {
		return nil, err
	}
	// Patterns computed from document content could be unbounded: cache
	// at most maxCachedRegexes per program.
	if f.prog.reCount.Add(1) <= maxCachedRegexes {
		f.prog.re.Store(key, re)
	}
	return re, nil
}

func optArg(a []xdm.Sequence, i int) xdm.Sequence {
	if i < len(a) {
		if a[i] == nil {
			return xdm.Sequence{}
		}
		return a[i]
	}
	return nil
}

func fnMatches(f *frame, _ focus, e *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
	s, err := f.strArg(a[0], "matches")
	if err != nil {
		return nil, err
	}
	re, err := f.regexArg(e, a[1], optArg(a, 2), "matches")
	if err != nil {
		return nil, err
	}
	return f.boolSeq(re.MatchString(s)), nil
}

func fnTokenize(f *frame, _ focus, e *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
	s, err := f.strArg(a[0], "tokenize")
	if err != nil {
		return nil, err
	}
	var parts []string
	if len(a) == 1 {
		s = NormalizeSpace(s)
		if s == "" {
			return nil, nil
		}
		parts = strings.Split(s, " ")
	} else {
		re, err := f.regexArg(e, a[1], optArg(a, 2), "tokenize")
		if err != nil {
			return nil, err
		}
		if re.empty {
			return nil, xdm.Errorf(xdm.ErrRegexEmpty, "tokenize: pattern %q matches a zero-length string", re.String())
		}
		if s == "" {
			return nil, nil
		}
		parts = re.Split(s)
	}
	out := f.alloc(len(parts))
	for i, p := range parts {
		out[i] = xdm.String(p)
	}
	return out, nil
}

func fnReplace(f *frame, _ focus, e *Expr, a []xdm.Sequence) (xdm.Sequence, error) {
	s, err := f.strArg(a[0], "replace")
	if err != nil {
		return nil, err
	}
	re, err := f.regexArg(e, a[1], optArg(a, 3), "replace")
	if err != nil {
		return nil, err
	}
	if re.empty {
		return nil, xdm.Errorf(xdm.ErrRegexEmpty, "replace: pattern %q matches a zero-length string", re.String())
	}
	rep, err := f.strArg(a[2], "replace")
	if err != nil {
		return nil, err
	}
	tmpl, err := TranslateReplacement(rep, re.NumSubexp())
	if err != nil {
		return nil, err
	}
	return f.str(re.ReplaceAll(s, tmpl)), nil
}

// TranslateReplacement converts an fn:replace replacement string ($N group
// references, \$ and \\ escapes) to Go's Expand template syntax.
func TranslateReplacement(rep string, groups int) (string, error) {
	if !strings.ContainsAny(rep, `$\`) {
		return rep, nil
	}
	var sb strings.Builder
	for i := 0; i < len(rep); i++ {
		c := rep[i]
		switch c {
		case '\\':
			if i+1 < len(rep) && (rep[i+1] == '\\' || rep[i+1] == '$') {
				if rep[i+1] == '$' {
					sb.WriteString("$$")
				} else {
					sb.WriteByte('\\')
				}
				i++
				continue
			}
			return "", xdm.Errorf(xdm.ErrReplacement, "invalid replacement string %q", rep)
		case '$':
			j := i + 1
			if j >= len(rep) || rep[j] < '0' || rep[j] > '9' {
				return "", xdm.Errorf(xdm.ErrReplacement, "invalid replacement string %q", rep)
			}
			n := int(rep[j] - '0')
			j++
			for j < len(rep) && rep[j] >= '0' && rep[j] <= '9' && n*10+int(rep[j]-'0') <= groups {
				n = n*10 + int(rep[j]-'0')
				j++
			}
			if n <= groups {
				fmt.Fprintf(&sb, "${%d}", n)
			}
			i = j - 1
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), nil
}
