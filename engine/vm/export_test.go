package vm

// FastRoot reports whether the program's whole test is evaluated without
// a frame (for TestFastPaths).
func (p *Program) FastRoot() bool { return p.fast != nil }

// FastRoot reports whether the pattern is matched without a frame (for
// TestFastPatterns).
func (pt *Pattern) FastRoot() bool { return pt.fast != nil }

// FastDispatch reports whether the pattern's dispatch key is evaluated
// without a frame (for TestFastDispatchValues).
func (pt *Pattern) FastDispatch() bool { return pt.dispatch != nil && pt.dispatch.fast != nil }

// ScalarFors is the number of for-expressions of the program whose body
// runs as a closure (for TestScalarFor).
func (p *Program) ScalarFors() int { return len(p.scalarFors) }

// WithoutScalarFors is a copy of p whose for-expressions all run in the
// interpreter (for TestScalarFor).
func (p *Program) WithoutScalarFors() *Program {
	q := *p
	q.scalarFors = nil
	return &q
}

// MemoCount is the number of memo slots the Env's frame holds a value in
// for its document (for TestFastMemo).
func (env *Env) MemoCount() int { return env.memoFlags(func(f *frame) []bool { return f.memoSet }) }

// MemoMisses is the number of memo slots whose frame-free walk or index
// build gave up in the Env's document (for TestFastMemoKeyBuild).
func (env *Env) MemoMisses() int { return env.memoFlags(func(f *frame) []bool { return f.memoMiss }) }

// memoFlags counts the flags set among those flags picks from the Env's
// frame's memo table, when the table is its document's.
func (env *Env) memoFlags(flags func(*frame) []bool) int {
	f := env.fr
	if f == nil || f.memoDoc != env.Doc {
		return 0
	}
	n := 0
	for _, set := range flags(f) {
		if set {
			n++
		}
	}
	return n
}

// FastKeyIndexes is the number of frame-free step indexes the Env's
// frame built for its current document (for TestFastKeyIndexes).
func (env *Env) FastKeyIndexes() int {
	f := env.fr
	if f == nil || f.fast.keyDoc != env.Doc {
		return 0
	}
	return f.fast.keyN
}

// NormalizeUpper and UpperCase are the frame-free operands' string
// functions (for TestNormalizeUpper).
var NormalizeUpper, UpperCase = normalizeUpper, upperCase
