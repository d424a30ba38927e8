package xpath

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/engine/vm"
	"github.com/einvoice-dev/einvoice/engine/xdm"
	"github.com/einvoice-dev/einvoice/engine/xmltree"
)

// fuzzSeeds are hand-written seeds covering the grammar.
var fuzzSeeds = []string{
	"cbc:ID", "//cac:InvoiceLine[2]/cbc:ID", "count(*) > 1", "sum(//cbc:LineExtensionAmount)",
	"for $x in 1 to 3 return $x * 2", "some $l in cac:InvoiceLine satisfies $l/cbc:ID = '1'",
	"if (cbc:Note) then 'a' else 'b'", "xs:decimal('1.5') div 3", "matches(cbc:ID, '^[A-Z]+-\\d$')",
	"replace('a-b', '-', '$0')", "tokenize('a b', ' ')[2]", "(1, 2, 3)[. > 1]", "'x' castable as xs:date",
	"cbc:ID instance of element()", "substring('abc', 2)", "../..", "ancestor::*[1]/@currencyID",
	"string-join(reverse(tokenize('a,b', ',')), ';')", "(: c :) 1 idiv 0", "(cac:X | cac:Y)/cbc:Z",
}

func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	exprs, funcs := collectRuleSetExpressions(f, filepath.Join(sharedDir(), "rulesets"))
	seen := map[string]bool{}
	for _, x := range exprs {
		if !seen[x.src] {
			seen[x.src] = true
			f.Add(x.src)
		}
	}
	sc := &StaticContext{Namespaces: map[string]string{"cbc": nsCBC, "cac": nsCAC, "ubl": nsInv},
		Variables: map[string]int{"x": 0}, Functions: funcs}
	f.Fuzz(func(t *testing.T, src string) {
		if _, err := Compile(src, sc); err != nil {
			var xe *Error
			if !errors.As(err, &xe) {
				t.Fatalf("Compile(%q): unexpected error type %T: %v", src, err, err)
			}
		}
		if _, err := CompilePattern(src, sc); err != nil {
			var xe *Error
			if !errors.As(err, &xe) {
				t.Fatalf("CompilePattern(%q): unexpected error type %T: %v", src, err, err)
			}
		}
	})
}

func FuzzEval(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	d := parseDoc(f, testDoc)
	sc := ublContext()
	sc.Variables = map[string]int{"v": 0}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile(src, sc)
		if err != nil {
			var xe *Error
			if !errors.As(err, &xe) {
				t.Fatalf("Compile(%q): unexpected error type %T: %v", src, err, err)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		env := &vm.Env{Doc: d, Vars: []xdm.Sequence{{xdm.Integer(1)}}}
		for _, node := range []int{0, 1, int(rootElement(d)) + 1} {
			if _, err := p.EvalString(ctx, env, nodeID(node)); err != nil {
				var xe *xdm.Error
				if !errors.As(err, &xe) {
					t.Fatalf("Eval(%q): unexpected error type %T: %v", src, err, err)
				}
			}
		}
	})
}

// FuzzFastAgrees compiles each input as a boolean test against a catalog
// (so that its frame-free forms are made, those reading the variable $v
// included: vm.Program.FastVarTest) and checks, with $v bound in turn to
// a string, an integer, the document's nodes, nothing and true(), that
// they answer as the interpreter alone on every element and attribute
// (vm.Program.FastAgrees), and that its value as a let's does
// (vm.Program.FastValueAgrees).
func FuzzFastAgrees(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range []string{"cbc:ID = $v", "$v = normalize-space(cbc:Note)", "not(cbc:Note = $v) or exists(cac:InvoiceLine)",
		"cbc:InvoiceTypeCode > $v", "@currencyID = $v and cbc:Amount > 0",
		"$v * 2 > 700", "(if (cbc:Note) then xs:decimal(cbc:Amount) else $v) + 1 > 1",
		"contains(' 38 39 ', substring(cbc:InvoiceTypeCode, 1, 2))", "starts-with(normalize-space(cbc:ID), 'INV')",
		"string(cbc:IssueDate) castable as xs:date", "ends-with(cbc:Note, $v)",
		"contains(' IN INV ', concat(' ', substring(cbc:ID, 1, 3), ' '))",
		"every $r in cac:InvoiceLine/xs:decimal(cbc:LineExtensionAmount) satisfies $r > 0",
		"some $r in xs:decimal(cac:AllowanceCharge/cbc:Amount) satisfies sum(cac:InvoiceLine[xs:decimal(cbc:LineExtensionAmount) > $r]/xs:decimal(cbc:LineExtensionAmount)) > $r",
		// Absolute paths read from the memo and key indexes (fastmemo.go).
		"exists(//cac:InvoiceLine[cbc:ID = '1']) and count(//cac:InvoiceLine[cbc:ID = '2'][cbc:Note]) = 0",
		"not(//cac:TaxCategory[normalize-space(cbc:ID) = 'Z']) or exists(//cac:Missing[cbc:ID = 'S'])",
		"count(//cac:AllowanceCharge[cbc:ChargeIndicator = false()]/cac:TaxCategory[normalize-space(cbc:ID) = 'S']) = 1",
		// BR-S-08's shape: frame-free step indexes keyed by the quantified
		// variable or a literal (fastkey.go), a path ending in arithmetic.
		"every $r in cac:TaxCategory/xs:decimal(cbc:Percent) satisfies exists(//cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID) = 'S'][cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $r])",
		"every $r in //cac:TaxSubtotal/cac:TaxCategory/xs:decimal(cbc:Percent) satisfies (../xs:decimal(cbc:TaxableAmount - 1) < sum(/*/cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $r]/xs:decimal(cbc:LineExtensionAmount)) and ../xs:decimal(cbc:TaxableAmount + 1) > sum(/*/cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory/xs:decimal(cbc:Percent) = $r]/xs:decimal(cbc:LineExtensionAmount)))",
		"sum(/cac:Invoice/cac:InvoiceLine[cac:Item/cac:ClassifiedTaxCategory/normalize-space(cbc:ID) = 'E']/xs:decimal(cbc:LineExtensionAmount)) = 0 and exists(/*/cac:AllowanceCharge[cbc:ChargeIndicator = true()][cac:TaxCategory/cbc:ID = 'S'])",
		"some $r in cac:InvoiceLine/cbc:ID satisfies count(/*/cac:InvoiceLine[cbc:ID = $r]) = 1",
		// String functions of paths and of $v (faststr.go), as tests and
		// as values.
		"string-join(cbc:Note, '-')", "replace($v, 'N', '')", "(string-length($v) - string-length(replace($v, '-', ''))) div 1",
		"if (string(cbc:Note)) then substring($v[1], 1, 2) else $v", "string-join(cac:InvoiceLine/cbc:ID, '')[contains(., '2')]",
		"$v = ('INV-1', 'x') or $v != 'n'", "if (contains($v, '-')) then substring-before($v, '-') else $v", "count(cac:InvoiceLine) + 1",
		// Leading ancestor and sibling steps, a union of absolute paths
		// first, sequences of paths, //@name (fast.go's fsAncestor,
		// fsFollowing, fsPreceding, fsDescAttr, compileFastSeqEBV).
		"cac:AllowanceCharge/cac:TaxCategory/cbc:ID[ancestor::cac:AllowanceCharge/cbc:ChargeIndicator = 'false' and following-sibling::cac:TaxScheme/cbc:ID = 'VAT']",
		"count(preceding-sibling::cac:InvoiceLine) < 2 or ancestor::cac:InvoiceLine/cbc:ID = '1'",
		"exists((/ubl:Invoice | /cn:CreditNote)/cac:AllowanceCharge[cbc:ChargeIndicator = false()])",
		"(cbc:Note, cac:InvoiceLine[cbc:ID = '2'])", "count(//@currencyID) - count(//cbc:Amount/@currencyID) <= 0",
		// A let's nodes filtered by closed predicates (fast.go's varFilter).
		"exists($v[contains(., 'a')])", "count($v[normalize-space(.) != ''][not(@x)]) le 1", "empty($v[xs:decimal(.) > 1])",
		// Step predicates reading $v in a let's value (fastPathOfIn),
		// exists/matches/number of $v, a code list over a string
		// function (session 39).
		"normalize-space(../cac:InvoiceLine[cbc:ID = $v]/cbc:Note)", "count(//cac:InvoiceLine[cbc:Note = $v])",
		"exists($v[1]) and matches(normalize-space($v), '^IN')", "number($v) = number(cbc:ID)",
		"not(contains(normalize-space(cbc:ID), ' ')) and contains(' INV-1 INV-2 ', concat(' ', normalize-space(upper-case(cbc:ID)), ' '))",
		"every $l in cac:InvoiceLine satisfies $l/cac:Item/cac:ClassifiedTaxCategory[cbc:ID = 'S']"} {
		f.Add(s)
	}
	// testDoc, and a document with enough lines and allowances for the
	// step indexes (minKeyCands).
	docs := []*xmltree.Document{parseDoc(f, testDoc), parseDoc(f, linesDoc)}
	values := make([][]xdm.Sequence, len(docs))
	for i, d := range docs {
		var notes xdm.Sequence
		for n := 0; n < d.Len(); n++ {
			if d.Kind(nodeID(n)) == xmltree.KindElement && d.NameLocal(d.Name(nodeID(n))) == "Note" {
				notes = append(notes, xdm.NodeItem(int32(n)))
			}
		}
		// nil and true(): also the engine's two probe bindings of a failed
		// let (engine/lazy.go).
		values[i] = []xdm.Sequence{{xdm.String("INV-1")}, {xdm.Integer(380)}, notes, nil, {xdm.Bool(true)}}
	}
	f.Fuzz(func(t *testing.T, src string) {
		cat := vm.NewCatalog()
		sc := ublContext()
		sc.Catalog, sc.Variables = cat, map[string]int{"v": 0}
		p, err := Compile(src, sc)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for i, d := range docs {
			for _, v := range values[i] {
				env := &vm.Env{Doc: d, Vars: []xdm.Sequence{v}}
				env.CatalogIDs(cat)
				for n := 0; n < d.Len(); n++ {
					if k := d.Kind(nodeID(n)); k != xmltree.KindElement && k != xmltree.KindAttribute {
						continue
					}
					if _, err := p.FastAgrees(ctx, env, nodeID(n)); err != nil && ctx.Err() == nil {
						t.Fatalf("%q with $v = %v on document %d: %v", src, v, i, err)
					}
					if _, err := p.FastValueAgrees(ctx, env, nodeID(n)); err != nil && ctx.Err() == nil {
						t.Fatalf("%q as a value with $v = %v on document %d: %v", src, v, i, err)
					}
				}
			}
		}
	})
}

// linesDoc has five lines of two VAT categories and three rates (one
// written 19.0), four allowances and charges and a breakdown: BR-S-08's
// material for FuzzFastAgrees.
const linesDoc = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
 xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2">
 <cbc:ID>INV-2</cbc:ID><cbc:Note>n</cbc:Note>
 <cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:Amount>5</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:TaxCategory></cac:AllowanceCharge>
 <cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount>1.5</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>7</cbc:Percent></cac:TaxCategory></cac:AllowanceCharge>
 <cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:Amount>2</cbc:Amount><cac:TaxCategory><cbc:ID>E</cbc:ID><cbc:Percent>0</cbc:Percent></cac:TaxCategory></cac:AllowanceCharge>
 <cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:Amount>x</cbc:Amount><cac:TaxCategory><cbc:ID> S </cbc:ID><cbc:Percent>19.0</cbc:Percent></cac:TaxCategory></cac:AllowanceCharge>
 <cac:TaxTotal><cac:TaxSubtotal><cbc:TaxableAmount>103.5</cbc:TaxableAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal>
 <cac:TaxSubtotal><cbc:TaxableAmount>20</cbc:TaxableAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>7</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal>
 <cac:TaxSubtotal><cbc:TaxableAmount>8</cbc:TaxableAmount><cac:TaxCategory><cbc:ID>E</cbc:ID><cbc:Percent>0</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal>
 <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:LineExtensionAmount>50</cbc:LineExtensionAmount><cac:Item><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item></cac:InvoiceLine>
 <cac:InvoiceLine><cbc:ID>2</cbc:ID><cbc:LineExtensionAmount>48.5</cbc:LineExtensionAmount><cac:Item><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19.0</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item></cac:InvoiceLine>
 <cac:InvoiceLine><cbc:ID>3</cbc:ID><cbc:LineExtensionAmount>21.5</cbc:LineExtensionAmount><cac:Item><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>7</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item></cac:InvoiceLine>
 <cac:InvoiceLine><cbc:ID>4</cbc:ID><cbc:LineExtensionAmount>10</cbc:LineExtensionAmount><cac:Item><cac:ClassifiedTaxCategory><cbc:ID>E</cbc:ID><cbc:Percent>0</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item></cac:InvoiceLine>
 <cac:InvoiceLine><cbc:ID>2</cbc:ID><cbc:LineExtensionAmount>1</cbc:LineExtensionAmount><cac:Item><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:ID>E</cbc:ID><cbc:Percent>7</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item></cac:InvoiceLine>
</Invoice>`
