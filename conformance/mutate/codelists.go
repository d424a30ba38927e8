package mutate

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

// CodeLists are the code lists harvested from code-list Schematron files,
// keyed by what they constrain: an element's local name ("InvoiceTypeCode")
// or an attribute ("@currencyID", and "ID/@schemeID" with its element).
// A CodeLists is immutable after Harvest/ParseCodeLists and safe to share.
type CodeLists struct {
	byKey map[string][][]string
	all   [][]string
}

var (
	ruleRe    = regexp.MustCompile(`(?s)<(?:sch:)?rule\b[^>]*\bcontext\s*=\s*"([^"]*)"[^>]*>(.*?)</(?:sch:)?rule>`)
	containRe = regexp.MustCompile(`contains\(\s*'(\s[^']*\s)'\s*,\s*concat\(\s*'\s'\s*,\s*normalize-space\(\s*((?:upper-case\(|lower-case\()?\s*[.@\w:-]*)`)
	predRe    = regexp.MustCompile(`\[[^\]]*\]`)
)

// Harvest reads code lists from Schematron files (typically the codelist
// .sch of a rule set).
func Harvest(files ...string) (*CodeLists, error) {
	cl := &CodeLists{byKey: map[string][][]string{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("mutate: harvest code lists: %w", err)
		}
		cl.add(data)
	}
	if len(cl.all) == 0 {
		return nil, fmt.Errorf("mutate: no code list found in %v", files)
	}
	return cl, nil
}

// ParseCodeLists harvests the code lists of one Schematron document.
func ParseCodeLists(sch []byte) *CodeLists {
	cl := &CodeLists{byKey: map[string][][]string{}}
	cl.add(sch)
	return cl
}

func (cl *CodeLists) add(sch []byte) {
	for _, m := range ruleRe.FindAllSubmatch(sch, -1) {
		elems := contextNames(string(m[1]))
		for _, c := range containRe.FindAllSubmatch(m[2], -1) {
			codes := strings.Fields(string(c[1]))
			if len(codes) == 0 {
				continue
			}
			sort.Strings(codes)
			codes = dedup(codes)
			cl.all = append(cl.all, codes)
			arg := string(c[2])
			arg = strings.TrimPrefix(strings.TrimPrefix(arg, "upper-case("), "lower-case(")
			arg = strings.TrimSpace(arg)
			if strings.HasPrefix(arg, "@") {
				attr := localPart(arg[1:])
				cl.byKey["@"+attr] = append(cl.byKey["@"+attr], codes)
				for _, e := range elems {
					cl.byKey[e+"/@"+attr] = append(cl.byKey[e+"/@"+attr], codes)
				}
				continue
			}
			for _, e := range elems {
				cl.byKey[e] = append(cl.byKey[e], codes)
			}
		}
	}
}

// contextNames returns the local names the last step of each alternative of
// a rule context can match ("cac:Country/cbc:IdentificationCode | x:Y[@a]"
// → IdentificationCode, Y).
func contextNames(ctx string) []string {
	var out []string
	for _, alt := range strings.Split(predRe.ReplaceAllString(ctx, ""), "|") {
		alt = strings.TrimSpace(alt)
		if i := strings.LastIndexByte(alt, '/'); i >= 0 {
			alt = alt[i+1:]
		}
		alt = localPart(strings.TrimSpace(alt))
		if alt != "" && alt != "*" && !strings.ContainsAny(alt, "()@") {
			out = append(out, alt)
		}
	}
	return out
}

func localPart(q string) string {
	if i := strings.LastIndexByte(q, ':'); i >= 0 {
		return q[i+1:]
	}
	return q
}

func dedup(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Lists returns the code lists for a key ("InvoiceTypeCode", "@currencyID",
// "Amount/@currencyID"); nil when none.
func (cl *CodeLists) Lists(key string) [][]string { return cl.byKey[key] }

// Len is the number of harvested lists.
func (cl *CodeLists) Len() int { return len(cl.all) }

// listsFor returns the lists for an element (attr == "") or an attribute of
// it, most specific first; falls back to every list that contains value.
func (cl *CodeLists) listsFor(elem, attr, value string) [][]string {
	if cl == nil {
		return nil
	}
	if attr != "" {
		if l := cl.byKey[elem+"/@"+attr]; len(l) > 0 {
			return l
		}
		if l := cl.byKey["@"+attr]; len(l) > 0 {
			return l
		}
	} else if l := cl.byKey[elem]; len(l) > 0 {
		return l
	}
	var out [][]string
	for _, l := range cl.all {
		i := sort.SearchStrings(l, value)
		if i < len(l) && l[i] == value {
			out = append(out, l)
		}
	}
	return out
}
