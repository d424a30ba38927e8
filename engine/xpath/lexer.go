package xpath

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF        tokKind = iota
	tName               // NCName or prefix:local (text)
	tStar               // *
	tPrefixStar         // prefix:* (text = prefix)
	tStarLocal          // *:local (text = local)
	tString             // string literal (text = value)
	tInteger
	tDecimal
	tDouble
	tSymbol // punctuation / operator (text)
)

type token struct {
	kind tokKind
	text string
	pos  int
}

func isNameStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNameChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r == '-' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) ||
		unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || r == 0xB7
}

// lex splits src into tokens.
func lex(src string) ([]token, error) {
	// An expression is Unicode text: a byte sequence that is not UTF-8
	// has no string value (FuzzScalarFor found string-length(replace())
	// counting a literal's stray bytes one way in the closures and another
	// in the interpreter, once the replace joined them into a character).
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, &Error{Offset: i, Construct: fmt.Sprintf("%q", src[i:i+1]), Msg: "not UTF-8"}
	}
	// About one token per five bytes of the rule sets' expressions: one
	// allocation for most.
	toks := make([]token, 0, len(src)/5+4)
	i := 0
	for {
		// whitespace and comments
		for i < len(src) {
			c := src[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				i++
				continue
			}
			if c == '(' && i+1 < len(src) && src[i+1] == ':' {
				depth := 0
				j := i
				for j < len(src) {
					if strings.HasPrefix(src[j:], "(:") {
						depth++
						j += 2
					} else if strings.HasPrefix(src[j:], ":)") {
						depth--
						j += 2
						if depth == 0 {
							break
						}
					} else {
						j++
					}
				}
				if depth != 0 {
					return nil, &Error{Offset: i, Construct: "(:", Msg: "unterminated comment"}
				}
				i = j
				continue
			}
			break
		}
		if i >= len(src) {
			toks = append(toks, token{kind: tEOF, pos: i})
			return toks, nil
		}
		start := i
		c := src[i]
		switch {
		case c == '"' || c == '\'':
			if j := strings.IndexByte(src[i+1:], c); j >= 0 && (i+j+2 >= len(src) || src[i+j+2] != c) {
				// No doubled quote: the value is a substring of src.
				toks = append(toks, token{kind: tString, text: src[i+1 : i+1+j], pos: start})
				i += j + 2
				continue
			}
			var sb strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, &Error{Offset: start, Construct: src[start:min(len(src), start+10)], Msg: "unterminated string literal"}
				}
				if src[j] == c {
					if j+1 < len(src) && src[j+1] == c {
						sb.WriteByte(c)
						j += 2
						continue
					}
					break
				}
				sb.WriteByte(src[j])
				j++
			}
			toks = append(toks, token{kind: tString, text: sb.String(), pos: start})
			i = j + 1
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			kind := tInteger
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			if j < len(src) && src[j] == '.' {
				kind = tDecimal
				j++
				for j < len(src) && src[j] >= '0' && src[j] <= '9' {
					j++
				}
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && src[k] >= '0' && src[k] <= '9' {
					for k < len(src) && src[k] >= '0' && src[k] <= '9' {
						k++
					}
					kind = tDouble
					j = k
				} else {
					return nil, &Error{Offset: start, Construct: src[start:k], Msg: "invalid numeric literal"}
				}
			}
			if j < len(src) {
				if r, _ := utf8.DecodeRuneInString(src[j:]); isNameStart(r) {
					return nil, &Error{Offset: start, Construct: src[start : j+1], Msg: "numeric literal followed by a name"}
				}
			}
			toks = append(toks, token{kind: kind, text: src[start:j], pos: start})
			i = j
		case c == '*':
			if i+2 < len(src) && src[i+1] == ':' {
				if r, _ := utf8.DecodeRuneInString(src[i+2:]); isNameStart(r) {
					j := scanNCName(src, i+2)
					toks = append(toks, token{kind: tStarLocal, text: src[i+2 : j], pos: start})
					i = j
					continue
				}
			}
			toks = append(toks, token{kind: tStar, text: "*", pos: start})
			i++
		default:
			r, _ := utf8.DecodeRuneInString(src[i:])
			if isNameStart(r) {
				j := scanNCName(src, i)
				if j+1 < len(src) && src[j] == ':' {
					if src[j+1] == '*' {
						toks = append(toks, token{kind: tPrefixStar, text: src[i:j], pos: start})
						i = j + 2
						continue
					}
					if r2, _ := utf8.DecodeRuneInString(src[j+1:]); isNameStart(r2) {
						k := scanNCName(src, j+1)
						toks = append(toks, token{kind: tName, text: src[i:k], pos: start})
						i = k
						continue
					}
				}
				toks = append(toks, token{kind: tName, text: src[i:j], pos: start})
				i = j
				continue
			}
			sym := ""
			for _, s := range []string{"//", "::", "..", "!=", "<=", ">=", "<<", ">>", ":="} {
				if strings.HasPrefix(src[i:], s) {
					sym = s
					break
				}
			}
			if sym == "" {
				if strings.IndexByte("()[],/@.|=<>+-?$:!", c) >= 0 {
					sym = src[i : i+1]
				} else {
					return nil, &Error{Offset: start, Construct: string(r), Msg: "unexpected character"}
				}
			}
			toks = append(toks, token{kind: tSymbol, text: sym, pos: start})
			i += len(sym)
		}
	}
}

func scanNCName(src string, i int) int {
	for i < len(src) {
		if c := src[i]; c < utf8.RuneSelf {
			if !(c == '_' || c == '-' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if !isNameChar(r) {
			break
		}
		i += n
	}
	return i
}
