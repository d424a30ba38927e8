package engine

import (
	"context"
	"reflect"
	"strings"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// Saxon evaluates xsl:variable (a Schematron let) lazily: a let whose
// expression raises a dynamic error aborts the stage only if an evaluation
// actually needs its value. Lets are evaluated eagerly here (the vm reads
// variable slots directly), so a failing let is remembered instead of
// aborting at once. An expression that references a failed slot is then
// evaluated twice, with the slot bound to two different sentinels (the
// empty sequence and true()); if both runs succeed with the same result the
// value was not needed (e.g. `$a and $failed` with $a false) and the result
// stands, otherwise the let's error is raised, as the reference would.

// sentinels are the two probe bindings of a failed slot.
var sentinels = [2]xdm.Sequence{nil, {xdm.Bool(true)}}

// varRefs returns the slots of the in-scope variables an expression's source
// references ($name, QName characters), without duplicates.
func varRefs(src string, vars map[string]int) []int32 {
	if len(vars) == 0 {
		return nil // EN 16931 and most sets: no variable in scope
	}
	var out []int32
	for i := 0; i < len(src); i++ {
		// Skip to the next '$' (IndexByte is vectorised: a load scans
		// every test and message of the rule set).
		d := strings.IndexByte(src[i:], '$')
		if d < 0 {
			break
		}
		i += d
		j := i + 1
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
			j++
		}
		k := j
		for k < len(src) && isNameByte(src[k]) {
			k++
		}
		if slot, ok := vars[src[j:k]]; ok {
			dup := false
			for _, s := range out {
				dup = dup || s == int32(slot)
			}
			if !dup {
				out = append(out, int32(slot))
			}
		}
		i = k - 1
	}
	return out
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ':' || c >= 0x80 ||
		(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// failedRef returns the error of the first failed slot among refs.
func (v *validation) failedRef(refs []int32) error {
	if !v.st.anyLetErr {
		return nil
	}
	for _, s := range refs {
		if err := v.st.letErr[s]; err != nil {
			return err
		}
	}
	return nil
}

// probe runs eval twice with the failed slots among refs bound to the two
// sentinels and returns the common result, or letErr when the results
// differ or either run fails.
func probe[T any](v *validation, refs []int32, letErr error, eval func() (T, error)) (T, error) {
	var results [2]T
	for i, sent := range sentinels {
		for _, s := range refs {
			if v.st.letErr[s] != nil {
				v.st.vars[s] = sent
			}
		}
		res, err := eval()
		if err != nil {
			var zero T
			v.resetFailed(refs)
			return zero, letErr
		}
		results[i] = res
	}
	v.resetFailed(refs)
	if !reflect.DeepEqual(results[0], results[1]) {
		var zero T
		return zero, letErr
	}
	return results[0], nil
}

func (v *validation) resetFailed(refs []int32) {
	for _, s := range refs {
		if v.st.letErr[s] != nil {
			v.st.vars[s] = nil
		}
	}
}

// maxLetBuf bounds the storage a pooled state keeps for one let's value
// (a let of a large document's every line is not kept between documents).
const maxLetBuf = 1 << 10

// evalLet evaluates let slot i on node, recording (not raising) its error.
func (v *validation) evalLet(ctx context.Context, i int, node xmltree.NodeID) {
	r, env := v.r, &v.st.env
	if r.deadLet[i] {
		v.st.letErr[i] = nil
		v.st.vars[i] = nil
		return
	}
	if c, ok := r.lets[i].Constant(); ok {
		// A constant code list: shared, not evaluated and copied again
		// for every document (variable values are read-only).
		v.st.letErr[i] = nil
		v.st.vars[i] = c
		return
	}
	var seq xdm.Sequence
	var err error
	if lerr := v.failedRef(r.letRefs[i]); lerr != nil {
		seq, err = probe(v, r.letRefs[i], lerr, func() (xdm.Sequence, error) {
			s, err := r.lets[i].Eval(ctx, env, node)
			return append(xdm.Sequence(nil), s...), err
		})
	} else {
		seq, err = r.lets[i].EvalAppend(ctx, env, node, v.st.letBuf[i][:0:cap(v.st.letBuf[i])])
		if err == nil {
			v.st.letBuf[i] = nil
			if cap(seq) <= maxLetBuf {
				v.st.letBuf[i] = seq
			}
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		v.st.letErr[i] = &letError{name: r.tables.Lets[i].Name, err: err}
		v.st.anyLetErr = true
		v.st.vars[i] = nil
		return
	}
	v.st.letErr[i] = nil
	v.st.vars[i] = seq
}

// letError is the deferred error of a let, raised where its value is needed.
type letError struct {
	name string
	err  error
}

func (e *letError) Error() string { return "let $" + e.name + ": " + e.err.Error() }
func (e *letError) Unwrap() error { return e.err }

// evalBool is prog.EvalBool honouring failed lets among refs.
func (v *validation) evalBool(ctx context.Context, prog *vm.Program, refs []int32, node xmltree.NodeID) (bool, error) {
	if lerr := v.failedRef(refs); lerr != nil {
		return probe(v, refs, lerr, func() (bool, error) { return prog.EvalBool(ctx, &v.st.env, node) })
	}
	return prog.EvalBool(ctx, &v.st.env, node)
}

// matches is pat.Matches (pat.MatchesGated when gated: see mayMatch)
// honouring failed lets among refs.
func (v *validation) matches(ctx context.Context, pat *vm.Pattern, refs []int32, node xmltree.NodeID, gated bool) (bool, error) {
	if lerr := v.failedRef(refs); lerr != nil {
		return probe(v, refs, lerr, func() (bool, error) { return v.match(ctx, pat, node, gated) })
	}
	return v.match(ctx, pat, node, gated)
}

func (v *validation) match(ctx context.Context, pat *vm.Pattern, node xmltree.NodeID, gated bool) (bool, error) {
	if m, ok := pat.MatchFastIn(v.fast, node, gated); ok {
		return m, nil
	}
	if gated {
		return pat.MatchesGated(ctx, &v.st.env, node)
	}
	return pat.Matches(ctx, &v.st.env, node)
}
