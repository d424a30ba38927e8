package xsd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"
)

// tripwire is a named pipe: any attempt to open it for reading blocks until
// a writer appears, so a parser that tries to read it hangs instead of
// returning. noRead runs f and fails if it does not return promptly.
func tripwire(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return p
}

func noRead(t *testing.T, fifo string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// Unblock the reader so the process can finish, then fail.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatalf("the validation tried to read %s", fifo)
	}
}

func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func utf16BE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFE, 0xFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func TestDoctypeIsRefusedAndReadsNothing(t *testing.T) {
	s := mustLoad(t, ublInvoiceRel)
	fifo := tripwire(t)
	uri := "file://" + fifo
	inv := `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&x;</Invoice>`
	cases := map[string][]byte{
		"external general entity": []byte(`<!DOCTYPE Invoice [<!ENTITY x SYSTEM "` + uri + `">]>` + inv),
		"plain path entity":       []byte(`<?xml version="1.0"?>` + "\n" + `<!DOCTYPE Invoice [<!ENTITY x SYSTEM "` + fifo + `">]>` + inv),
		"external subset":         []byte(`<!DOCTYPE Invoice SYSTEM "` + uri + `"><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`),
		"parameter entity":        []byte(`<!DOCTYPE Invoice [<!ENTITY % p SYSTEM "` + uri + `"> %p;]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`),
		"billion laughs":          []byte(`<!DOCTYPE Invoice [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY x "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>` + inv),
		"after comment and PI":    []byte("\uFEFF<?xml version='1.0' encoding='UTF-8'?>\n<!-- c --><?pi x?>\n<!DOCTYPE Invoice [<!ENTITY x SYSTEM \"" + uri + "\">]>" + inv),
		"utf-16le with BOM":       utf16LE(`<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "`+uri+`">]>`+inv, true),
		"utf-16be without BOM":    utf16BE(`<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "`+uri+`">]>`+inv, false),
	}
	for name, doc := range cases {
		for _, p := range []pass{{prescan: true, stream: true}, {stream: true}, {}} {
			t.Run(fmt.Sprintf("%s/%+v", name, p), func(t *testing.T) {
				var errs []Error
				var err error
				noRead(t, fifo, func() { errs, err = s.validate(context.Background(), doc, p) })
				if !errors.Is(err, ErrDoctype) {
					t.Errorf("err = %v (findings %v), want ErrDoctype", err, errs)
				}
				if errs != nil {
					t.Errorf("refused document returned findings %v", errs)
				}
			})
		}
		if got := scanProlog(doc); got != prologDoctype {
			t.Errorf("%s: scanProlog = %v, want prologDoctype", name, got)
		}
	}
}

func TestEncodingsTheScanCannotReadStillRefused(t *testing.T) {
	// Declared UTF-32 after an ASCII XML declaration: the byte scan gives up
	// (prologUnknown) and the in-parser hook must refuse.
	s := mustLoad(t, ublInvoiceRel)
	fifo := tripwire(t)
	doc := []byte(`<?xml version="1.0" encoding="UTF-32"?><!DOCTYPE a SYSTEM "file://` + fifo + `"><a/>`)
	if got := scanProlog(doc); got != prologUnknown {
		t.Fatalf("scanProlog = %v, want prologUnknown", got)
	}
	noRead(t, fifo, func() {
		errs, err := s.Validate(context.Background(), doc)
		t.Logf("findings %v, err %v", errs, err)
		// libxml2 either refuses (DOCTYPE seen) or cannot decode; either way
		// no valid verdict.
		if err == nil && len(errs) == 0 {
			t.Error("document validated")
		}
	})
}

func TestSchemaLocationHintsAreIgnored(t *testing.T) {
	s := mustLoad(t, ublInvoiceRel)
	fifo := tripwire(t)
	orig := readFile(t, sharedPath(t, ublExample1Rel))
	// The example already names a schema by http URL; point it at the
	// tripwire instead (and add a noNamespaceSchemaLocation).
	doc := bytes.Replace(orig, []byte(`http://docs.oasis-open.org/ubl/os-UBL-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd"`),
		[]byte(`file://`+fifo+`" xsi:noNamespaceSchemaLocation="`+fifo+`"`), 1)
	if bytes.Equal(doc, orig) {
		t.Fatal("replacement failed")
	}
	noRead(t, fifo, func() {
		errs, err := s.Validate(context.Background(), doc)
		if err != nil || len(errs) != 0 {
			t.Errorf("want valid, got %v %v", errs, err)
		}
	})
}

func TestOtherEncodingsValidate(t *testing.T) {
	s := mustLoad(t, ublInvoiceRel)
	orig := string(readFile(t, sharedPath(t, ublExample1Rel)))
	if !strings.HasPrefix(orig, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Fatalf("unexpected XML declaration: %.60q", orig)
	}
	body := strings.TrimPrefix(orig, `<?xml version="1.0" encoding="UTF-8"?>`)
	for name, doc := range map[string][]byte{
		"utf-16le bom":   utf16LE(`<?xml version="1.0" encoding="UTF-16"?>`+body, true),
		"utf-16be bom":   utf16BE(`<?xml version="1.0" encoding="UTF-16"?>`+body, true),
		"utf-16le sniff": utf16LE(`<?xml version="1.0" encoding="UTF-16"?>`+body, false),
		"no declaration": []byte(strings.TrimLeft(body, "\r\n")),
	} {
		if got := scanProlog(doc); got != prologNoDoctype {
			t.Errorf("%s: scanProlog = %v", name, got)
		}
		errs, err := s.Validate(context.Background(), doc)
		if err != nil || len(errs) != 0 {
			t.Errorf("%s: want valid, got %v %v", name, errs, err)
		}
	}
}

func TestNotWellFormedAndEmpty(t *testing.T) {
	s := mustLoad(t, ublInvoiceRel)
	for name, c := range map[string]struct {
		doc  string
		line int
	}{
		"empty":        {"", 0},
		"blank":        {"  \n ", 2},
		"unclosed":     {"<Invoice>\n<a>\n", 3},
		"bad entity":   {"<a>&nosuch;</a>", 1},
		"two roots":    {"<a/>\n<b/>", 2},
		"bad encoding": {"<a>\xff\xfe</a>", 1},
	} {
		errs, err := s.Validate(context.Background(), []byte(c.doc))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkWellFormedFindings(t, errs)
		if len(errs) == 0 || errs[0].Level != LevelFatal || errs[0].Line != c.line {
			t.Errorf("%s: got %v, want a fatal finding at line %d", name, errs, c.line)
		}
	}
}

// TestParserLimitsStayOn checks XML_PARSE_HUGE is off: libxml2's default
// nesting limit (256) applies.
func TestParserLimitsStayOn(t *testing.T) {
	s := mustLoad(t, ublInvoiceRel)
	const depth = 300
	doc := strings.Repeat("<a>", depth) + strings.Repeat("</a>", depth)
	errs, err := s.Validate(context.Background(), []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) == 0 || errs[0].Level != LevelFatal || !strings.Contains(errs[0].Message, "depth") {
		t.Errorf("got %v, want a fatal excessive-depth finding", errs)
	}
	// Depth within the limit parses (and is then schema-invalid).
	doc = strings.Repeat("<a>", 200) + strings.Repeat("</a>", 200)
	errs, err = s.Validate(context.Background(), []byte(doc))
	if err != nil || len(errs) != 1 || errs[0].Level != LevelError {
		t.Errorf("depth 200: got %v %v, want one schema error", errs, err)
	}
}

// intListSchema loads a schema for <r><i>int</i>*</r>.
func intListSchema(t *testing.T) *Schema {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"s/r.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="r"><xs:complexType><xs:sequence>
    <xs:element name="i" type="xs:int" maxOccurs="unbounded"/>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`})
	s, err := Load(filepath.Join(dir, "s/r.xsd"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestLinesBeyond65535: libxml2 2.9 keeps element lines in 16 bits; the
// bridge records exact lines past that, including for empty elements.
func TestLinesBeyond65535(t *testing.T) {
	s := intListSchema(t)
	const n = 70000
	doc := "<r>\n" + strings.Repeat("<i>1</i>\n", n) + "<i>x</i>\n<i/>\n<j\n/>\n</r>"
	errs, err := s.Validate(context.Background(), []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []int{n + 2, n + 3, n + 5} // <j .../> ends on the line after it starts
	if len(errs) != len(want) {
		t.Fatalf("got %v, want %d findings", errs, len(want))
	}
	for i, e := range errs {
		if e.Line != want[i] {
			t.Errorf("finding %d: line %d, want %d (%v)", i, e.Line, want[i], e)
		}
	}
	// Syntax errors past 65535 carry line and column too.
	errs, err = s.Validate(context.Background(), []byte("<r>\n"+strings.Repeat("<i>1</i>\n", n)+"</q>"))
	if err != nil || len(errs) == 0 || errs[0].Line != n+2 || errs[0].Col == 0 || errs[0].Level != LevelFatal {
		t.Errorf("got %v %v, want a fatal finding at line %d with a column", errs, err, n+2)
	}
}

func TestFindingsAreCapped(t *testing.T) {
	s := intListSchema(t)
	const n = maxFindings + 234
	doc := "<r>\n" + strings.Repeat("<i>x</i>\n", n) + "</r>"
	errs, err := s.Validate(context.Background(), []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != maxFindings+1 {
		t.Fatalf("got %d findings, want %d", len(errs), maxFindings+1)
	}
	for i, e := range errs[:maxFindings] {
		if e.Line != i+2 {
			t.Fatalf("finding %d at line %d, want %d", i, e.Line, i+2)
		}
	}
	last := errs[maxFindings]
	if last.Level != LevelError || !strings.Contains(last.Message, "234 more") {
		t.Errorf("last finding %v, want an error counting 234 more", last)
	}
}

func TestContextCheckedBefore(t *testing.T) {
	s := mustLoad(t, ublInvoiceRel)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errs, err := s.Validate(ctx, readFile(t, sharedPath(t, ublExample1Rel)))
	if !errors.Is(err, context.Canceled) || errs != nil {
		t.Errorf("got %v %v, want context.Canceled and no findings", errs, err)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer dcancel()
	if _, err := s.Validate(dctx, []byte("<a/>")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want context.DeadlineExceeded", err)
	}
}

func TestConcurrentValidationIsDeterministic(t *testing.T) {
	inv := mustLoad(t, ublInvoiceRel)
	cn := mustLoad(t, ublCreditNoteRel)
	type job struct {
		s   *Schema
		doc []byte
	}
	var jobs []job
	for _, f := range corpusFiles(t, "corpus/en16931/ubl/examples", 15) {
		doc := readFile(t, f)
		s := inv
		if rootName(t, doc) == "CreditNote" {
			s = cn
		}
		jobs = append(jobs, job{s, doc})
		// And a broken twin of each, so findings are compared too.
		broken := bytes.Replace(doc, []byte("cbc:IssueDate>"), []byte("cbc:IssueDat>"), 2)
		jobs = append(jobs, job{s, broken})
		jobs = append(jobs, job{inv, doc[:len(doc)/2]}) // truncated: fatal findings
	}
	want := make([][]Error, len(jobs))
	invalid := 0
	for i, j := range jobs {
		errs, err := j.s.Validate(context.Background(), j.doc)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = errs
		if len(errs) > 0 {
			invalid++
		}
	}
	if invalid < len(jobs)/2 {
		t.Fatalf("only %d of %d jobs have findings; the comparison would be weak", invalid, len(jobs))
	}
	const workers, rounds = 8, 3
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				for k := range jobs {
					i := (k + w*7 + r) % len(jobs) // different order per worker
					got, err := jobs[i].s.Validate(context.Background(), jobs[i].doc)
					if err != nil || !reflect.DeepEqual(got, want[i]) {
						mu.Lock()
						failures = append(failures, fmt.Sprintf("worker %d job %d: %v (err %v), want %v", w, i, got, err, want[i]))
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
}
