package mutate

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strings"
	"time"
)

// Op names a mutation operation.
type Op string

// The operations, with the weight they get when applicable.
const (
	OpRemove    Op = "remove"    // delete an element (with its subtree)
	OpEmpty     Op = "empty"     // delete an element's content
	OpDuplicate Op = "duplicate" // repeat an element right after itself
	OpCode      Op = "code"      // another value of the element's code list, or an invalid code
	OpAmount    Op = "amount"    // perturb a decimal
	OpDate      Op = "date"      // invalid date, other format, shifted
	OpPercent   Op = "percent"   // another percentage (or an invalid one)
	OpAttr      Op = "attr"      // another value of an attribute (listed or invalid)
)

var weights = []struct {
	op Op
	w  int
}{
	{OpRemove, 3}, {OpEmpty, 2}, {OpDuplicate, 2}, {OpCode, 3},
	{OpAmount, 3}, {OpDate, 2}, {OpPercent, 2}, {OpAttr, 3},
}

// Mutant is one mutated document.
type Mutant struct {
	// Name is "<source>#<seed>:<op>:<path>[=<value>]"; Source.Mutate(Seed)
	// rebuilds the same mutant.
	Name  string
	Seed  uint64
	Op    Op
	Path  string // of the mutated element or attribute
	Value string // the new value for value-changing operations
	Data  []byte
}

var (
	decimalRe = regexp.MustCompile(`^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$`)
	isoDateRe = regexp.MustCompile(`^\s*(\d{4})-(\d{2})-(\d{2})\s*$`)
	cDateRe   = regexp.MustCompile(`^\s*(\d{4})(\d{2})(\d{2})\s*$`)
)

// Mutate returns the mutant for seed: one operation at one place. The same
// seed always gives the same mutant of the same document.
func (d *Document) Mutate(seed uint64) Mutant {
	return d.apply(rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), seed)
}

// MutateMulti applies 1 to maxOps operations in sequence (each on the result
// of the previous one), all chosen by seed, so that interactions between
// changes are exercised too. The name lists every step:
// "<source>#<seed>:<op>:<path>[=<value>]+<op>:<path>[=<value>]…"; Op and
// Path are those of the first step.
func (d *Document) MutateMulti(seed uint64, maxOps int) Mutant {
	rng := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	m := d.apply(rng, seed)
	steps := 1 + rng.IntN(max(maxOps, 1))
	for i := 1; i < steps; i++ {
		next, err := Parse(d.name, m.Data, d.cl)
		if err != nil { // cannot happen: every operation keeps the document well-formed
			break
		}
		n := next.apply(rng, seed)
		m.Data = n.Data
		m.Name += "+" + strings.TrimPrefix(n.Name, fmt.Sprintf("%s#%d:", d.name, seed))
	}
	return m
}

func (d *Document) apply(rng *rand.Rand, seed uint64) Mutant {
	cands := d.cands
	total := 0
	for _, w := range weights {
		if len(cands[w.op]) > 0 {
			total += w.w
		}
	}
	op := OpRemove
	if total > 0 {
		r := rng.IntN(total)
		for _, w := range weights {
			if len(cands[w.op]) == 0 {
				continue
			}
			if r < w.w {
				op = w.op
				break
			}
			r -= w.w
		}
	}
	m := Mutant{Seed: seed, Op: op}
	list := cands[op]
	if len(list) == 0 { // a document made of its root only
		m.Path = d.elems[0].path
		m.Data = append([]byte(nil), d.src...)
		m.Name = fmt.Sprintf("%s#%d:%s:%s", d.name, seed, "none", m.Path)
		return m
	}
	c := list[rng.IntN(len(list))]
	e := &d.elems[c.elem]
	m.Path = e.path
	switch op {
	case OpRemove:
		m.Data = splice(d.src, e.start, e.endEnd, "")
	case OpEmpty:
		m.Data = splice(d.src, e.startEnd, e.end, "")
	case OpDuplicate:
		m.Data = splice(d.src, e.endEnd, e.endEnd, string(d.src[e.start:e.endEnd]))
	case OpCode:
		m.Value = d.newCode(rng, e.local, "", strings.TrimSpace(e.text))
		m.Data = splice(d.src, e.startEnd, e.end, escapeText(m.Value))
	case OpAmount:
		m.Value = newAmount(rng, e.text)
		m.Data = splice(d.src, e.startEnd, e.end, escapeText(m.Value))
	case OpDate:
		m.Value = newDate(rng, e.text)
		m.Data = splice(d.src, e.startEnd, e.end, escapeText(m.Value))
	case OpPercent:
		m.Value = newPercent(rng, e.text)
		m.Data = splice(d.src, e.startEnd, e.end, escapeText(m.Value))
	case OpAttr:
		a := e.attrs[c.attr]
		m.Path = e.path + "/@" + a.local
		m.Value = d.newCode(rng, e.local, a.local, a.value)
		m.Data = splice(d.src, a.valStart, a.valEnd, escapeAttr(m.Value))
	}
	m.Name = fmt.Sprintf("%s#%d:%s:%s", d.name, seed, op, m.Path)
	if m.Value != "" || op == OpCode || op == OpAmount || op == OpDate || op == OpPercent || op == OpAttr {
		m.Name += "=" + fmt.Sprintf("%q", m.Value)
	}
	return m
}

type cand struct{ elem, attr int }

// candidates lists, per operation, where it applies.
func (d *Document) candidates() map[Op][]cand {
	out := map[Op][]cand{}
	for i := range d.elems {
		e := &d.elems[i]
		if e.depth > 0 {
			out[OpRemove] = append(out[OpRemove], cand{i, -1})
			out[OpDuplicate] = append(out[OpDuplicate], cand{i, -1})
			if e.end > e.startEnd {
				out[OpEmpty] = append(out[OpEmpty], cand{i, -1})
			}
		}
		for j, a := range e.attrs {
			if !a.nsDecl && !strings.HasPrefix(a.qname, "xml:") {
				out[OpAttr] = append(out[OpAttr], cand{i, j})
			}
		}
		if !e.leaf || e.selfClose {
			continue
		}
		v := strings.TrimSpace(e.text)
		if v == "" {
			continue
		}
		switch {
		case isoDateRe.MatchString(v) || (cDateRe.MatchString(v) && hasAttr(e, "format")):
			out[OpDate] = append(out[OpDate], cand{i, -1})
		case strings.Contains(e.local, "Percent") && decimalRe.MatchString(v):
			out[OpPercent] = append(out[OpPercent], cand{i, -1})
		case strings.HasSuffix(e.local, "Code") || len(d.cl.listsFor(e.local, "", v)) > 0 && !decimalRe.MatchString(v):
			out[OpCode] = append(out[OpCode], cand{i, -1})
		case decimalRe.MatchString(v):
			out[OpAmount] = append(out[OpAmount], cand{i, -1})
		}
	}
	return out
}

func hasAttr(e *element, local string) bool {
	for _, a := range e.attrs {
		if a.local == local {
			return true
		}
	}
	return false
}

var invalidCodes = []string{"XX", "ZZZ", "999", "", "0", "zz", "A B"}

// newCode picks another value of the element's (or attribute's) code list,
// or, one time in four or when there is no list, an invalid code.
func (d *Document) newCode(rng *rand.Rand, elem, attr, cur string) string {
	lists := d.cl.listsFor(elem, attr, cur)
	if len(lists) == 0 || rng.IntN(4) == 0 {
		switch rng.IntN(4) {
		case 0:
			return strings.ToLower(cur)
		case 1:
			return " " + cur + " "
		default:
			return invalidCodes[rng.IntN(len(invalidCodes))]
		}
	}
	l := lists[rng.IntN(len(lists))]
	for range 8 {
		if v := l[rng.IntN(len(l))]; v != cur {
			return v
		}
	}
	return l[rng.IntN(len(l))]
}

func newAmount(rng *rand.Rand, text string) string {
	v := strings.TrimSpace(text)
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return v + "0"
	}
	decs := 0
	if i := strings.IndexByte(v, '.'); i >= 0 {
		decs = len(v) - i - 1
	}
	cent := big.NewRat(1, 100)
	switch rng.IntN(9) {
	case 0:
		return new(big.Rat).Add(r, cent).FloatString(max(decs, 2))
	case 1:
		return new(big.Rat).Sub(r, cent).FloatString(max(decs, 2))
	case 2:
		return new(big.Rat).Mul(r, big.NewRat(10, 1)).FloatString(decs)
	case 3:
		return new(big.Rat).Neg(r).FloatString(decs)
	case 4: // many digits
		if decs == 0 {
			return v + ".0000001"
		}
		return v + "0000001"
	case 5:
		return new(big.Rat).Mul(r, big.NewRat(1, 3)).FloatString(2 + rng.IntN(5))
	case 6:
		return "0"
	case 7: // other formats
		comma := strings.Replace(v, ".", ",", 1)
		if comma == v {
			comma = v + ",00"
		}
		return []string{comma, v + ".", "+" + v, "1e3", "abc", ""}[rng.IntN(6)]
	default:
		return new(big.Rat).Add(r, big.NewRat(int64(rng.IntN(2000)-1000), 1)).FloatString(decs)
	}
}

func newDate(rng *rand.Rand, text string) string {
	v := strings.TrimSpace(text)
	var y, mo, da string
	iso := true
	if m := isoDateRe.FindStringSubmatch(v); m != nil {
		y, mo, da = m[1], m[2], m[3]
	} else if m := cDateRe.FindStringSubmatch(v); m != nil {
		y, mo, da = m[1], m[2], m[3]
		iso = false
	} else {
		return v + "x"
	}
	format := func(y, mo, da string) string {
		if iso {
			return y + "-" + mo + "-" + da
		}
		return y + mo + da
	}
	switch rng.IntN(7) {
	case 0:
		return format(y, "02", "30")
	case 1:
		return format(y, "13", da)
	case 2: // the other syntax's format
		if iso {
			return y + mo + da
		}
		return y + "-" + mo + "-" + da
	case 3:
		return da + "." + mo + "." + y
	case 4, 5: // shift by -400..+400 days: crosses other dates of the document
		t, err := time.Parse("2006-01-02", y+"-"+mo+"-"+da)
		if err != nil {
			return format(y, mo, "00")
		}
		t = t.AddDate(0, 0, rng.IntN(801)-400)
		if iso {
			return t.Format("2006-01-02")
		}
		return t.Format("20060102")
	default:
		if iso {
			return y + "-" + mo + "-" + da + []string{"T10:00:00", "Z", "+01:00"}[rng.IntN(3)]
		}
		return y + mo
	}
}

var percents = []string{"0", "100", "25", "19.6", "-5", "1000", "12.345", "abc", "", "7.00", "20", "5.5"}

func newPercent(rng *rand.Rand, text string) string {
	v := strings.TrimSpace(text)
	for range 4 {
		if p := percents[rng.IntN(len(percents))]; p != v {
			return p
		}
	}
	return v + "1"
}
