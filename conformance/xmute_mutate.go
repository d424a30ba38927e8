package conformance

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// XmuteInstruction is one <?xmute ...?> processing instruction of a KoSIT
// XML-Mutate test instance (xmute 0.6, as used by xrechnung-schematron):
// it acts on the element that follows it (its target).
type XmuteInstruction struct {
	Mutator   string            // identity, remove, empty, code, whitespace
	Params    map[string]string // every pseudo-attribute as written
	ID        string            // the instruction's id (may be empty)
	Valid     []XmuteRule       // schematron-valid: must not fire
	Invalid   []XmuteRule       // schematron-invalid: must fire
	Line      int               // line of the PI in the instance
	piStart   int               // byte offsets of the PI
	piEnd     int
	tagStart  int // target start tag [tagStart, tagEnd)
	tagEnd    int
	bodyEnd   int // content [tagEnd, bodyEnd); end tag [bodyEnd, elemEnd)
	elemEnd   int
	hasTarget bool
}

// XmuteRule is one expectation entry "prefix:RULE-ID".
type XmuteRule struct{ Prefix, ID string }

// XmuteMutant is one document derived from an instruction.
type XmuteMutant struct {
	Instruction *XmuteInstruction
	Variant     string // the code value, whitespace position, or "" (one mutant)
	Doc         []byte
}

// Errors of the xmute reader (the fuzz test's allow-list).
var (
	ErrXmuteSyntax   = errors.New("xmute: malformed instruction")
	ErrXmuteTarget   = errors.New("xmute: no usable target element")
	ErrXmuteMutator  = errors.New("xmute: unsupported mutator")
	ErrXmuteDocument = errors.New("xmute: malformed document")
)

var xmutePseudoAttr = regexp.MustCompile(`^\s*([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// parseXmutePI reads the pseudo-attributes of a PI's content.
func parseXmutePI(content string) (map[string]string, error) {
	out := map[string]string{}
	rest := content
	for strings.TrimSpace(rest) != "" {
		m := xmutePseudoAttr.FindStringSubmatchIndex(rest)
		if m == nil {
			return nil, fmt.Errorf("%w: %q", ErrXmuteSyntax, strings.TrimSpace(rest))
		}
		name := rest[m[2]:m[3]]
		val := ""
		if m[4] >= 0 {
			val = rest[m[4]:m[5]]
		} else {
			val = rest[m[6]:m[7]]
		}
		if prev, dup := out[name]; dup {
			// XML-Mutate reads every parameter as a list: a repeated
			// expectation adds its rules; other repeats are errors.
			if name != "schematron-valid" && name != "schematron-invalid" {
				return nil, fmt.Errorf("%w: duplicate %s", ErrXmuteSyntax, name)
			}
			val = prev + " " + val
		}
		out[name] = val
		rest = rest[m[1]:]
	}
	return out, nil
}

// parseXmuteRules splits an expectation list: entries separated by commas
// and/or whitespace, each prefix:ID.
func parseXmuteRules(s string) ([]XmuteRule, error) {
	var out []XmuteRule
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		p, id, ok := strings.Cut(f, ":")
		if !ok || p == "" || id == "" {
			return nil, fmt.Errorf("%w: rule %q is not prefix:ID", ErrXmuteSyntax, f)
		}
		out = append(out, XmuteRule{p, id})
	}
	return out, nil
}

// ParseXmute finds every xmute instruction of an instance and its target
// (the next element after the PI, at any depth).
func ParseXmute(data []byte) ([]*XmuteInstruction, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var out []*XmuteInstruction
	var pending []*XmuteInstruction // waiting for their target
	type open struct {
		ins   []*XmuteInstruction
		start int
	}
	var stack []open
	for {
		before := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrXmuteDocument, err)
		}
		after := int(d.InputOffset())
		switch t := tok.(type) {
		case xml.ProcInst:
			if t.Target != "xmute" {
				continue
			}
			params, err := parseXmutePI(string(t.Inst))
			if err != nil {
				return nil, err
			}
			ins := &XmuteInstruction{Mutator: params["mutator"], Params: params, ID: params["id"],
				Line: 1 + bytes.Count(data[:before], []byte("\n")), piStart: before, piEnd: after}
			if ins.Valid, err = parseXmuteRules(params["schematron-valid"]); err != nil {
				return nil, err
			}
			if ins.Invalid, err = parseXmuteRules(params["schematron-invalid"]); err != nil {
				return nil, err
			}
			out = append(out, ins)
			pending = append(pending, ins)
		case xml.StartElement:
			for _, p := range pending {
				p.tagStart, p.tagEnd, p.hasTarget = before, after, true
			}
			stack = append(stack, open{ins: pending, start: before})
			pending = nil
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("%w: unbalanced end tag", ErrXmuteDocument)
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, p := range top.ins {
				if bytes.HasSuffix(data[top.start:p.tagEnd], []byte("/>")) && after == p.tagEnd {
					p.bodyEnd, p.elemEnd = p.tagEnd, p.tagEnd // <a/>
				} else {
					p.bodyEnd, p.elemEnd = before, after
				}
			}
		}
	}
	return out, nil
}

// attrRegexp matches name="value" (or single quotes) inside a start tag. A
// name that is not valid UTF-8 cannot be quoted into a regular expression
// (nor be an attribute): an error, not a panic.
func attrRegexp(name string) (*regexp.Regexp, error) {
	return regexp.Compile(`\s` + regexp.QuoteMeta(name) + `\s*=\s*("[^"]*"|'[^']*')`)
}

func escapeText(s string) string {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}

// Mutants derives the documents of one instruction, as XML-Mutate does:
// identity (the file as is); remove (the target, or its attribute=, is
// removed); empty (the target's content, or its attribute=, emptied); code
// (the target's text, or its attribute=, replaced by each of values split
// on separator, default ",", trimmed, empty pieces skipped);
// whitespace (the target's text prefixed, suffixed and replaced by a
// five-character whitespace sequence: three mutants). The other xmute PIs
// stay in the document (they are inert).
func (ins *XmuteInstruction) Mutants(data []byte) ([]XmuteMutant, error) {
	one := func(doc []byte) []XmuteMutant { return []XmuteMutant{{Instruction: ins, Doc: doc}} }
	if ins.Mutator == "identity" {
		return one(data), nil
	}
	if !ins.hasTarget || ins.elemEnd == 0 {
		return nil, fmt.Errorf("%w: %s at line %d", ErrXmuteTarget, ins.Mutator, ins.Line)
	}
	splice := func(from, to int, with string) []byte {
		out := make([]byte, 0, len(data)-(to-from)+len(with))
		out = append(out, data[:from]...)
		out = append(out, with...)
		return append(out, data[to:]...)
	}
	startTag := string(data[ins.tagStart:ins.tagEnd])
	attr := ins.Params["attribute"]
	setAttr := func(val *string) ([]byte, error) {
		re, err := attrRegexp(attr)
		if err != nil {
			return nil, fmt.Errorf("%w: attribute=%q at line %d is not a name: %v", ErrXmuteSyntax, attr, ins.Line, err)
		}
		loc := re.FindStringIndex(startTag)
		if loc == nil {
			return nil, fmt.Errorf("%w: no attribute %s on the target at line %d", ErrXmuteTarget, attr, ins.Line)
		}
		repl := ""
		if val != nil {
			var b strings.Builder
			if err := xml.EscapeText(&b, []byte(*val)); err != nil {
				return nil, err
			}
			repl = " " + attr + `="` + strings.ReplaceAll(b.String(), `"`, "&quot;") + `"`
		}
		tag := startTag[:loc[0]] + repl + startTag[loc[1]:]
		return splice(ins.tagStart, ins.tagEnd, tag), nil
	}
	body := data[ins.tagEnd:ins.bodyEnd]
	textOnly := !bytes.Contains(body, []byte("<")) || isCommentsOnly(body)
	selfClosing := strings.HasSuffix(startTag, "/>")
	setText := func(s string) ([]byte, error) {
		if !textOnly {
			return nil, fmt.Errorf("%w: complex content where a text value was expected (line %d)", ErrXmuteTarget, ins.Line)
		}
		if selfClosing {
			tag := strings.TrimSuffix(strings.TrimSuffix(startTag, "/>"), " ") + ">"
			name := strings.Fields(strings.TrimPrefix(startTag, "<"))[0]
			name = strings.TrimSuffix(name, "/>")
			return splice(ins.tagStart, ins.tagEnd, tag+escapeText(s)+"</"+name+">"), nil
		}
		return splice(ins.tagEnd, ins.bodyEnd, escapeText(s)), nil
	}
	switch ins.Mutator {
	case "remove":
		if attr != "" {
			d, err := setAttr(nil)
			if err != nil {
				return nil, err
			}
			return one(d), nil
		}
		return one(splice(ins.tagStart, ins.elemEnd, "<!--Removed node -->")), nil
	case "empty":
		if attr != "" {
			empty := ""
			d, err := setAttr(&empty)
			if err != nil {
				return nil, err
			}
			return one(d), nil
		}
		if selfClosing {
			return one(data), nil
		}
		return one(splice(ins.tagEnd, ins.bodyEnd, "<!--Emptied-->")), nil
	case "code":
		values, ok := ins.Params["values"]
		if !ok {
			return nil, fmt.Errorf("%w: code without values (line %d)", ErrXmuteSyntax, ins.Line)
		}
		sep := ins.Params["separator"]
		if sep == "" {
			sep = ","
		}
		var out []XmuteMutant
		for _, v := range strings.Split(values, sep) {
			// Values are trimmed: the suite's "a, b" lists expect "b"
			// (the valid-mime-code and IBAN cases only pass trimmed).
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			var d []byte
			var err error
			if attr != "" {
				d, err = setAttr(&v)
			} else {
				d, err = setText(v)
			}
			if err != nil {
				return nil, err
			}
			out = append(out, XmuteMutant{Instruction: ins, Variant: v, Doc: d})
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: code with no value (line %d)", ErrXmuteSyntax, ins.Line)
		}
		return out, nil
	case "whitespace":
		if !textOnly || strings.TrimSpace(string(body)) == "" {
			return nil, fmt.Errorf("%w: whitespace needs a non-empty text target (line %d)", ErrXmuteTarget, ins.Line)
		}
		// XML-Mutate draws five characters at random from newline, tab and
		// space; a fixed draw keeps the run reproducible.
		const ws = " \t\n \t"
		text := string(body)
		var out []XmuteMutant
		for _, v := range []struct{ name, text string }{{"prefix", ws + text}, {"suffix", text + ws}, {"replace", ws}} {
			out = append(out, XmuteMutant{Instruction: ins, Variant: v.name, Doc: splice(ins.tagEnd, ins.bodyEnd, v.text)})
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: %q (line %d)", ErrXmuteMutator, ins.Mutator, ins.Line)
}

func isCommentsOnly(body []byte) bool {
	s := string(body)
	for {
		i := strings.Index(s, "<")
		if i < 0 {
			return true
		}
		if !strings.HasPrefix(s[i:], "<!--") {
			return false
		}
		j := strings.Index(s[i:], "-->")
		if j < 0 {
			return false
		}
		s = s[i+j+3:]
	}
}
