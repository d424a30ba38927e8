package vm

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DFA bounds: a pattern whose automaton would be larger keeps Go's
// matcher (the construction is paid once per pattern, at Load for the
// rule sets' literal patterns).
const (
	maxDFAStates  = 256
	maxDFAClasses = 255
	maxDFACells   = 1 << 14 // states × classes
	maxDFAInsts   = 1000    // instructions of the RE2 program
	// maxDFAWork bounds the instructions visited by the construction, and
	// maxDFACut the rune tests of the alphabet's cut (intervals × distinct
	// rune sets): a pattern from a document must not make the compilation
	// slow (a few milliseconds at most).
	maxDFAWork = 1 << 18
	maxDFACut  = 1 << 16
)

// regexDFA answers regexp.Regexp.MatchString (is there a match anywhere
// in s) with a deterministic automaton built from the same RE2 program by
// subset construction. A state is a set of the program's threads that
// wait for a rune (or for the end of the input, `$`); a step follows the
// threads the rune lets through, then restarts the program (the search is
// unanchored: `^` threads die after position 0). The alphabet is cut into
// classes of runes that every instruction treats alike. Immutable once
// built.
type regexDFA struct {
	ascii   [utf8.RuneSelf]uint8 // class of each ASCII rune
	cuts    []rune               // intervals [cuts[k], cuts[k+1]) of the runes, sorted
	ivClass []uint8              // class of interval k
	ncls    int
	next    []int32 // next[s*ncls+c]
	matched []bool  // state s holds a finished match: MatchString is true
	endOK   []bool  // state s matches if the input ends here
	dead    []bool  // state s has no thread: MatchString is false
	// emptyOK: the empty input matches (the start state's end test with
	// `^` still true).
	emptyOK bool
}

func (d *regexDFA) class(r rune) int {
	if r < utf8.RuneSelf {
		return int(d.ascii[r])
	}
	return d.intervalClass(r)
}

func (d *regexDFA) intervalClass(r rune) int {
	k, found := slices.BinarySearch(d.cuts, r)
	if !found {
		k--
	}
	return int(d.ivClass[k])
}

// match is MatchString.
func (d *regexDFA) match(s string) bool {
	if s == "" {
		return d.emptyOK
	}
	st := int32(0)
	for i := 0; i < len(s); {
		if d.matched[st] {
			return true
		}
		if d.dead[st] {
			return false
		}
		var c int
		if b := s[i]; b < utf8.RuneSelf {
			c = int(d.ascii[b])
			i++
		} else {
			r, n := utf8.DecodeRuneInString(s[i:])
			c = d.class(r)
			i += n
		}
		st = d.next[int(st)*d.ncls+c]
	}
	return d.matched[st] || d.endOK[st]
}

// dfaBuilder holds the subset construction.
type dfaBuilder struct {
	prog   *syntax.Prog
	seen   []uint32 // seen[pc] == gen: visited since reset
	gen    uint32
	work   int // instructions visited, against maxDFAWork
	leaves []uint32
	states map[string]int32
	sets   [][]uint32
}

// buildDFA returns the automaton of prog, or nil when prog uses what the
// automaton does not model (case folding, line anchors, word boundaries)
// or it would exceed the bounds.
func buildDFA(prog *syntax.Prog) *regexDFA {
	runes := 0
	for i := range prog.Inst {
		runes += len(prog.Inst[i].Rune)
	}
	if len(prog.Inst) > maxDFAInsts || runes > maxDFACut {
		return nil
	}
	var cuts []rune
	// runeInsts are the rune instructions, one per distinct rune set.
	var runeInsts []*syntax.Inst
	sets := map[string]bool{}
	for i := range prog.Inst {
		in := &prog.Inst[i]
		switch in.Op {
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
				return nil
			}
			continue
		case syntax.InstRune:
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				return nil
			}
		case syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		default:
			continue
		}
		kb := binary.LittleEndian.AppendUint32(nil, uint32(in.Op))
		for _, r := range in.Rune {
			kb = binary.LittleEndian.AppendUint32(kb, uint32(r))
		}
		key := string(kb)
		if sets[key] {
			continue
		}
		sets[key] = true
		runeInsts = append(runeInsts, in)
		switch {
		case in.Op == syntax.InstRuneAnyNotNL:
			cuts = append(cuts, '\n', '\n'+1)
		case len(in.Rune) == 1:
			cuts = append(cuts, in.Rune[0], in.Rune[0]+1)
		default:
			for k := 0; k+1 < len(in.Rune); k += 2 {
				cuts = append(cuts, in.Rune[k], in.Rune[k+1]+1)
			}
		}
	}
	cuts = append(cuts, 0, utf8.RuneSelf, unicode.MaxRune+1)
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	cuts = cuts[:len(cuts)-1] // the last bound opens no interval
	if len(cuts)*len(runeInsts) > maxDFACut {
		return nil
	}
	// Intervals whose runes every instruction treats alike share a class;
	// a class is named by its representative's verdicts.
	d := &regexDFA{cuts: cuts, ivClass: make([]uint8, len(cuts))}
	classOf := map[string]int{}
	var reps []rune
	sig := make([]byte, len(runeInsts))
	for k, lo := range cuts {
		for j, in := range runeInsts {
			sig[j] = '0'
			if in.MatchRune(lo) {
				sig[j] = '1'
			}
		}
		c, ok := classOf[string(sig)]
		if !ok {
			if len(reps) == maxDFAClasses {
				return nil
			}
			c = len(reps)
			classOf[string(sig)] = c
			reps = append(reps, lo)
		}
		d.ivClass[k] = uint8(c)
	}
	for r := rune(0); r < utf8.RuneSelf; r++ {
		d.ascii[r] = uint8(d.intervalClass(r))
	}
	d.ncls = len(reps)

	b := &dfaBuilder{prog: prog, seen: make([]uint32, len(prog.Inst)), gen: 1, states: map[string]int32{}}
	// Position 0: `^` holds. The empty input also ends there.
	b.visit(uint32(prog.Start), true, true)
	d.emptyOK = b.hasMatch()
	b.reset()
	b.visit(uint32(prog.Start), true, false)
	b.add(b.take())
	for s := 0; s < len(b.sets); s++ {
		if len(b.sets) > maxDFAStates || len(b.sets)*d.ncls > maxDFACells || b.work > maxDFAWork {
			return nil
		}
		set := b.sets[s]
		matched := false
		for _, pc := range set {
			if prog.Inst[pc].Op == syntax.InstMatch {
				matched = true
			}
		}
		d.matched = append(d.matched, matched)
		d.dead = append(d.dead, len(set) == 0)
		// At the end of the input: the threads waiting for `$` go on.
		b.reset()
		for _, pc := range set {
			if prog.Inst[pc].Op == syntax.InstEmptyWidth {
				b.visit(prog.Inst[pc].Out, false, true)
			}
		}
		d.endOK = append(d.endOK, b.hasMatch())
		for _, rep := range reps {
			b.reset()
			for _, pc := range set {
				if in := &prog.Inst[pc]; in.Op != syntax.InstEmptyWidth && in.Op != syntax.InstMatch && in.MatchRune(rep) {
					b.visit(in.Out, false, false)
				}
			}
			b.visit(uint32(prog.Start), false, false) // unanchored: a match may start here
			d.next = append(d.next, b.add(b.take()))
		}
	}
	if len(b.sets) > maxDFAStates || len(b.sets)*d.ncls > maxDFACells || b.work > maxDFAWork {
		return nil
	}
	return d
}

func (b *dfaBuilder) reset() {
	b.gen++
	b.leaves = b.leaves[:0]
}

func (b *dfaBuilder) hasMatch() bool {
	for _, pc := range b.leaves {
		if b.prog.Inst[pc].Op == syntax.InstMatch {
			return true
		}
	}
	return false
}

// take returns the leaves collected since reset, sorted: a state's key.
func (b *dfaBuilder) take() []uint32 {
	set := slices.Clone(b.leaves)
	slices.Sort(set)
	return set
}

// add returns the number of state set, numbering it when it is new.
func (b *dfaBuilder) add(set []uint32) int32 {
	var kb strings.Builder
	for _, pc := range set {
		kb.WriteString(strconv.FormatUint(uint64(pc), 36))
		kb.WriteByte(',')
	}
	key := kb.String()
	if s, ok := b.states[key]; ok {
		return s
	}
	s := int32(len(b.sets))
	b.states[key] = s
	b.sets = append(b.sets, set)
	return s
}

// visit follows the empty transitions from pc and collects the threads
// that wait for a rune, have matched, or wait for the end of the input.
func (b *dfaBuilder) visit(pc uint32, atBegin, atEnd bool) {
	if b.seen[pc] == b.gen {
		return
	}
	b.seen[pc] = b.gen
	b.work++
	in := &b.prog.Inst[pc]
	switch in.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		b.visit(in.Out, atBegin, atEnd)
		b.visit(in.Arg, atBegin, atEnd)
	case syntax.InstCapture, syntax.InstNop:
		b.visit(in.Out, atBegin, atEnd)
	case syntax.InstEmptyWidth:
		var have syntax.EmptyOp
		if atBegin {
			have |= syntax.EmptyBeginText
		}
		if atEnd {
			have |= syntax.EmptyEndText
		}
		need := syntax.EmptyOp(in.Arg)
		switch {
		case need&^have == 0:
			b.visit(in.Out, atBegin, atEnd)
		case !atEnd && need&^(have|syntax.EmptyEndText) == 0:
			b.leaves = append(b.leaves, pc) // waits for the end
		}
	case syntax.InstFail:
	default:
		b.leaves = append(b.leaves, pc)
	}
}
