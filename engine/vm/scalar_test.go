package vm_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xpath"
)

// TestScalarFor: a for-expression whose body is a closure over the bound
// item (scalar.go) gives the interpreter's value or error, for the IBAN
// check of XRechnung BR-DE-19 and bodies of every supported kind on
// integers, decimals, doubles, strings and booleans (type errors,
// division by zero, overflow into big coefficients, a date); a binding
// over nodes runs in the interpreter, and bodies of other kinds are not
// compiled (the scalar column).
func TestScalarFor(t *testing.T) {
	doc := parse(t, `<r><v>1</v><v>x</v></r>`)
	ctx := context.Background()
	for _, c := range scalarForCases {
		p := compile(t, c.expr, nil)
		if got := p.ScalarFors(); got != c.scalar {
			t.Errorf("%s: %d scalar for-expressions, want %d", c.expr, got, c.scalar)
		}
		got := evalOrError(ctx, p, doc)
		want := evalOrError(ctx, p.WithoutScalarFors(), doc)
		if got != want {
			t.Errorf("%s = %s, the interpreter says %s", c.expr, got, want)
		}
	}
}

// FuzzScalarFor: for any expression that compiles and has a for-expression
// run as closures, the closures' value or error code is the interpreter's
// (seeded with TestScalarFor's cases).
func FuzzScalarFor(f *testing.F) {
	for _, c := range scalarForCases {
		f.Add(c.expr)
	}
	doc := parse(f, `<r><v>1</v><v>x</v></r>`)
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 400 {
			return
		}
		p, err := xpath.Compile(expr, nil)
		if err != nil || p.ScalarFors() == 0 {
			return
		}
		// As FuzzEval: a budget, so that 1 to 1e9 ends; an evaluation cut
		// short by it is not compared.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		got, want := evalOrError(ctx, p, doc), evalOrError(ctx, p.WithoutScalarFors(), doc)
		if ctx.Err() == nil && got != want {
			t.Fatalf("%s = %s, the interpreter says %s", expr, got, want)
		}
	})
}

var scalarForCases = []struct {
	expr   string
	scalar int // for-expressions compiled to closures
}{
	{`string-join(for $cp in string-to-codepoints(concat(substring('DE75512108001245126199', 5), upper-case(substring('de75', 1, 2)), substring('DE75', 3, 2))) return (if ($cp > 64) then string($cp - 55) else string($cp - 48)), '')`, 1},
	{`xs:integer(string-join(for $cp in string-to-codepoints('5121080012451261991314DE75') return (if($cp > 64) then string($cp - 55) else string($cp - 48)), '')) mod 97`, 1},
	{`for $x in (1, 2.5, 3e0, -7) return $x * 2 - 1`, 1},
	{`for $x in (1, 2, 3) return $x div 0`, 1},
	{`for $x in (1, 2, 3) return $x idiv 0`, 1},
	{`for $x in (5, 0) return 10 mod $x`, 1},
	{`for $x in ('a', 1) return $x + 1`, 1},
	{`for $x in (1, 'a') return if ($x = 1) then 'one' else 'other'`, 1},
	{`for $x in (1, 2) return ($x > 1.5)`, 1},
	{`for $x in (true(), false()) return if ($x = true()) then 1 else 0`, 0},
	{`for $x in (true(), false()) return if ($x = 'true') then 1 else 0`, 1},
	{`for $x in (9223372036854775807, -9223372036854775807) return ($x + $x, $x * 10)`, 0},
	{`for $x in (9223372036854775807, -9223372036854775807) return $x * 10 - $x`, 1},
	{`for $x in (1.25, 2.50) return string($x * 4)`, 1},
	{`for $x in (3, 4) return if (1 > $x) then $x else string(5)`, 1},
	{`for $x in (1, 2) return string(())`, 1},
	{`for $x in ('2024-01-01', 3) return if ($x = xs:date('2024-01-01')) then 1 else 0`, 1},
	{`for $x in //v return string($x)`, 1},
	{`for $x in //v return if ($x > 0) then 1 else 2`, 1},
	// The string functions of BR-FR's xsl:functions, value comparisons,
	// literal lists, and, or, not; empty values; refusals (an argument
	// of another type, a date's effective boolean value) run the
	// interpreter's loop instead.
	{`for $a in ('1.50', '-12.345', '', ' 7', '１２') return matches($a, '^[-]?\d{1,19}(\.\d{1,2})?$') and string-length(replace($a, '\.', '')) le 19`, 1},
	{`for $d in ('2024-02-29', '2023-02-29', '2026-13-01', '20x4-01-01') return (number(substring($d, 1, 4)) mod 4 = 0 and number(substring($d, 6, 2)) = (1, 3, 5, 7, 8, 10, 12)) or number(substring($d, 9, 2)) le 28`, 1},
	{`for $s in ('S', 'AE', 'x', 'E ') return $s = ('S', 'E', 'AE', 'K', 'G', 'O', 'Z')`, 1},
	{`for $s in ('a', 'b') return $s = (1, 'a')`, 1}, // 'a' = 1: XPTY0004
	{`for $s in (1, 2) return $s = ('S', 'E', 'AE', 'K')`, 1},
	{`for $s in (' a  b ', 'c') return (normalize-space($s), starts-with($s, ' '), ends-with($s, 'c'), not(matches($s, ' ')))`, 0},
	{`for $s in (' a  b ', 'c') return if (starts-with($s, ' ') or ends-with($s, 'c')) then normalize-space($s) else not(matches($s, ' '))`, 1},
	{`for $s in ('abcdef', '') return concat(substring($s, 2), '|', substring($s, 0, 3), '|', substring($s, 1.5, 2.6))`, 0},
	{`for $s in ('abcdef', '') return substring($s, 1.5, 2.6)`, 1},
	{`for $s in ('abcdef', '') return substring($s, 2)`, 1},
	{`for $x in (1, 2) return substring('abc', $x, 'x')`, 1},
	{`for $x in (1, 2) return matches($x, '1')`, 1},
	{`for $x in (1, 2) return starts-with('a', $x)`, 1},
	{`for $x in (xs:date('2024-01-01'), 1) return if ($x) then 1 else 0`, 1},
	{`for $x in ('1', 'x', '') return number($x) * 2`, 1},
	{`for $x in (1, 2) return string-length(string($x + 10))`, 1},
	{`for $x in ('a', 'b') return $x eq 'a' or $x lt 'a'`, 1},
	{`for $x in (1, 'a') return $x eq 1`, 1},
	{`for $x in (1, 2) return ($x + (), () = $x, $x = ())`, 0},
	// A double and an integer literal (DoubleArith; every op, NaN, zeros,
	// infinities, a non-double operand), a double against a list of
	// integers (first match), substring with literal positions.
	{`for $x in (2024e0, -2024e0, 0e0, -0e0, 2.5e0, 1e300, xs:double('NaN'), xs:double('INF'), 7, 4.5, '3') return string($x mod 4)`, 1},
	{`for $x in (2024e0, -7e0, 0e0, 2.5e0, xs:double('INF'), 5) return string($x idiv 4)`, 1},
	{`for $x in (2024e0, -7e0, 2.5e0, 5, 5.5) return string(($x + 3) * 2 - 1 div 8)`, 1},
	{`for $x in (2024e0, 1e0) return string($x idiv 0)`, 1},
	{`for $x in (2e0, 13e0, 7e0, xs:double('NaN'), 7, 7.0, '7', 8.5e0) return $x = (1, 3, 5, 7, 8, 10, 12)`, 1},
	{`for $x in (2e0, 13e0, xs:double('NaN')) return ($x != (1, 2), $x < (1, 3), $x >= (13, 14))`, 0},
	{`for $x in (2e0, 13e0, xs:double('NaN')) return if ($x != (1, 2)) then 1 else if ($x < (1, 3)) then 2 else 3`, 1},
	{`for $x in (2e0, 1e0) return $x = (1, 99999999999999999999)`, 1},
	{`for $s in ('2024-02-29', 'é2024-02-29', '', 'ab') return concat(substring($s, 6, 2), '|', substring($s, -1, 3), '|', substring($s, 1.5, 2.6))`, 0},
	{`for $s in ('2024-02-29', 'é2024-02-29', '', 'ab') return substring($s, 6, 2)`, 1},
	{`for $s in ('2024-02-29', 'é2024-02-29') return substring($s, -1.5, xs:double('INF'))`, 1},
	{`for $s in ('2024-02-29', 'é2024-02-29') return substring($s, xs:double('NaN'), 3)`, 1},
	{`for $x in (1, 2) return $x + ()`, 1},
	{`for $x in (1, 2) return if (() = $x) then 'y' else 'n'`, 1},
	{`for $x in ('a.b', 'c') return replace($x, '\.', '-$0-')`, 1},
	{`for $x in ('a.b', 'c') return replace($x, '\.', '')`, 1},
	// string-length of a replace with a literal pattern, counted
	// (compileScalarLenReplace): longer, shorter and empty replacements,
	// multi-character and non-ASCII literals, a group reference (built),
	// the empty sequence, a number (XPTY0004).
	{`for $x in ('1.234.5', '', 'ééé', '..', 'a..b') return string-length(replace($x, '\.', ''))`, 1},
	{`for $x in ('1.234.5', '', 'ééé', '..', 'a..b') return string-length(replace($x, '\.', 'xyz'))`, 1},
	{`for $x in ('1.234.5', '', 'ééé', '..', 'a..b') return string-length(replace($x, 'é', ''))`, 1},
	{`for $x in ('1.234.5', '', 'ééé', '...', 'a..b') return string-length(replace($x, '\.\.', 'é'))`, 1},
	{`for $x in ('1.234.5', '', 'ééé', '..', 'a..b') return string-length(replace($x, '\.', '[$0]'))`, 1},
	{`for $x in ('a', ()) return string-length(replace($x, 'a', ''))`, 1},
	{`for $x in (1.5, 2) return string-length(replace($x, '\.', ''))`, 1},
	{`for $x in ('aAa') return string-length(replace($x, 'a', '', 'i'))`, 0},
	// The values kept per small integer (forMemoTab): repeated numbers,
	// an empty body, the bounds of the table, numbers of other types.
	{`for $x in (1, 1.0, 1e0, 1, 2, 1, xs:decimal('1')) return $x div 2`, 1},
	{`for $x in (1, 2, 1, 2) return if ($x = 1) then () else $x * 3`, 1},
	{`for $x in (200, 127, 128, 0, -1, 127, -1, 0, 128) return $x - 1`, 1},
	{`for $x in (1, 2), $y in (3, 4) return $x + $y`, 0},
	{`for $x in (1, 2) return $x + count(//v)`, 0},
}

// TestScalarForMemo: the values a scalar for-body gave for small integers
// are kept across evaluations in one Env (forMemoTab); each evaluation with
// another string still gives the interpreter's value or error.
func TestScalarForMemo(t *testing.T) {
	doc := parse(t, `<r/>`)
	ctx := context.Background()
	sc := &xpath.StaticContext{Variables: map[string]int{"s": 0}}
	for _, expr := range []string{
		`string-join(for $cp in string-to-codepoints($s) return (if ($cp > 64) then string($cp - 55) else string($cp - 48)), '')`,
		`for $cp in string-to-codepoints($s) return if ($cp = 65) then () else $cp * 2`,
		`for $cp in string-to-codepoints($s) return 100 idiv ($cp - 66)`,
	} {
		p := compile(t, expr, sc)
		env := &vm.Env{Doc: doc, Vars: []xdm.Sequence{nil}}
		for _, s := range []string{"DE75AB", "BA57ED", "AXA", "XAX", "A", "AB", "ÉA", "A"} {
			env.Vars[0] = xdm.Sequence{xdm.String(s)}
			got := evalEnvOrError(ctx, p, env)
			want := evalEnvOrError(ctx, p.WithoutScalarFors(), &vm.Env{Doc: doc, Vars: env.Vars})
			if got != want {
				t.Errorf("%s with $s = %q: %s, the interpreter says %s", expr, s, got, want)
			}
		}
	}
}

// evalOrError is the value of p at the document node as a string of its
// items' types and values, or its error code.
func evalOrError(ctx context.Context, p *vm.Program, doc *xmltree.Document) string {
	return evalEnvOrError(ctx, p, &vm.Env{Doc: doc})
}

// evalEnvOrError is evalOrError in env.
func evalEnvOrError(ctx context.Context, p *vm.Program, env *vm.Env) string {
	s, err := p.Eval(ctx, env, 0)
	if err != nil {
		return "error " + code(err)
	}
	out := ""
	for _, it := range s {
		if it.IsNode() {
			out += "node "
			continue
		}
		out += fmt.Sprintf("%s:%s:%v ", it.T, it.StringValue(), it.B)
	}
	return out
}
