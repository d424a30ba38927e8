package conformance

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
	"github.com/einvoice-dev/einvoice/formats/repair"
)

// breakings damage an official example: header totals set to wrong values
// and (UBL) the issue date written DD.MM.YYYY.
var (
	ublBreak = []*regexp.Regexp{
		regexp.MustCompile(`(<cbc:LineExtensionAmount[^>]*>)([^<]*)(<)`),
		regexp.MustCompile(`(<cbc:TaxInclusiveAmount[^>]*>)([^<]*)(<)`),
		regexp.MustCompile(`(<cbc:PayableAmount[^>]*>)([^<]*)(<)`),
	}
	ublIssueDate = regexp.MustCompile(`(<cbc:IssueDate>)(\d{4})-(\d{2})-(\d{2})(<)`)
	ciiBreak     = []*regexp.Regexp{
		regexp.MustCompile(`(<ram:SpecifiedTradeSettlementHeaderMonetarySummation>\s*<ram:LineTotalAmount[^>]*>)([^<]*)(<)`),
		regexp.MustCompile(`(<ram:GrandTotalAmount[^>]*>)([^<]*)(<)`),
		regexp.MustCompile(`(<ram:DuePayableAmount[^>]*>)([^<]*)(<)`),
	}
)

// breakFirst replaces the value of the first match of re by 1.11.
func breakFirst(data []byte, re *regexp.Regexp) ([]byte, bool) {
	loc := re.FindSubmatchIndex(data)
	if loc == nil || string(data[loc[4]:loc[5]]) == "1.11" {
		return data, false
	}
	out := append([]byte(nil), data[:loc[4]]...)
	out = append(out, "1.11"...)
	return append(out, data[loc[5]:]...), true
}

// TestFormatsRepairCorpus breaks the totals (and, in UBL, the issue date)
// of every EN 16931 example that has no fatal finding of its own, checks
// that the broken document has fatal findings, repairs it, and requires the
// repaired document to have no fatal finding (XSD + EN 16931) and to read
// to the same model as the original.
func TestFormatsRepairCorpus(t *testing.T) {
	shared, err := SharedDir()
	if err != nil {
		t.Fatal(err)
	}
	uc, cc := newUBLCheck(t), newCIICheck(t)
	ctx := context.Background()
	var files []string
	for _, pat := range []string{"corpus/en16931/ubl/examples/*.xml", "corpus/en16931/cii/examples/*.xml"} {
		m, _ := filepath.Glob(filepath.Join(shared, pat))
		files = append(files, m...)
	}
	sort.Strings(files)
	repaired := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		isCII := strings.Contains(f, "/cii/")
		check, fn, res := uc.fatal, repair.RepairUBL, ublBreak
		if isCII {
			check, fn, res = cc.fatal, repair.RepairCII, ciiBreak
		}
		if len(check(t, data)) > 0 {
			continue // the example itself is not conformant
		}
		broken := data
		for _, re := range res {
			broken, _ = breakFirst(broken, re)
		}
		if !isCII {
			broken = ublIssueDate.ReplaceAll(broken, []byte("${1}${4}.${3}.${2}${5}"))
		}
		if len(check(t, broken)) == 0 {
			t.Errorf("%s: the broken document has no fatal finding; the test breaks nothing", name)
			continue
		}
		out, err := fn(ctx, broken)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fat := check(t, out.XML); len(fat) > 0 {
			t.Errorf("%s: repaired document still has fatal findings (changes %+v, unfixed %+v):\n  %s", name, out.Changes, out.Unfixed, strings.Join(fat, "\n  "))
			continue
		}
		want, err1 := readModel(data)
		got, err2 := readModel(out.XML)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", name, err1, err2)
			continue
		}
		if d := model.Diff(want, got); len(d) > 0 {
			t.Errorf("%s: repaired model differs from the original at %v", name, d)
			continue
		}
		repaired++
		t.Logf("%s: %d changes, %d unfixed", name, len(out.Changes), len(out.Unfixed))
	}
	if repaired < 10 {
		t.Errorf("only %d examples repaired", repaired)
	}
}
