package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-dev/einvoice/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// fixtureVersion is a made-up vulndb pseudo-version: its commit time is the
// snapshot time of the fixture database.
const (
	fixtureVersion  = "v0.0.0-20260701120000-abcdefabcdef"
	fixtureSnapshot = "2026-07-01T12:00:00Z"
)

func buildFixture(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "db")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-osv", "testdata/osv", "-version", fixtureVersion, "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "vulndb: 4 entries, modified " + fixtureSnapshot + ", in " + out + "\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	return out
}

// The whole fixture database, byte for byte, against testdata/golden; every
// file has a gzip twin with the same contents and nothing else is written.
func TestGolden(t *testing.T) {
	db := buildFixture(t)
	var names []string
	err := filepath.WalkDir(db, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(db, p)
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range []string{"index/db", "index/modules", "index/vulns", "ID/GO-9999-0001", "ID/GO-9999-0002", "ID/GO-9999-0003", "ID/GO-9999-0004"} {
		want = append(want, n+".json", n+".json.gz")
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("files %q, want %q", names, want)
	}
	for _, n := range want {
		if strings.HasSuffix(n, ".gz") {
			continue
		}
		got := readFile(t, filepath.Join(db, n))
		if gz := gunzip(t, filepath.Join(db, n+".gz")); !bytes.Equal(gz, got) {
			t.Errorf("%s.gz differs from %s", n, n)
		}
		golden.Check(t, filepath.Join("testdata", "golden", filepath.FromSlash(n)), got, *update)
	}
}

// The index semantics, spelled out (the golden files pin the bytes).
func TestIndexes(t *testing.T) {
	db := buildFixture(t)
	var meta dbMeta
	decodeFile(t, filepath.Join(db, "index/db.json"), &meta)
	if meta.Modified != fixtureSnapshot {
		t.Errorf("db.json modified %s, want the snapshot %s (GO-9999-0001 has a zero time)", meta.Modified, fixtureSnapshot)
	}
	var modules []moduleIndex
	decodeFile(t, filepath.Join(db, "index/modules.json"), &modules)
	fixed := map[string]string{}
	for _, m := range modules {
		for _, v := range m.Vulns {
			fixed[m.Path+" "+v.ID] = v.Fixed
		}
	}
	wantFixed := map[string]string{
		"example.com/lib GO-9999-0004":   "1.2.0",
		"example.com/other GO-9999-0004": "2.1.0", // the last fix, after the reintroduction at 2.0.5
		"golang.org/x/text GO-9999-0001": "",      // never fixed
		"golang.org/x/text GO-9999-0002": "0.3.8",
		"golang.org/x/text GO-9999-0003": "", // fixed in 0.10.0, introduced again in 0.20.0
	}
	if len(fixed) != len(wantFixed) {
		t.Errorf("modules.json: %v, want %v", fixed, wantFixed)
	}
	for k, v := range wantFixed {
		if got, ok := fixed[k]; !ok || got != v {
			t.Errorf("modules.json %s: fixed %q (present %v), want %q", k, got, ok, v)
		}
	}
	var vulns []vulnIndex
	decodeFile(t, filepath.Join(db, "index/vulns.json"), &vulns)
	wantMod := map[string]string{
		"GO-9999-0001": fixtureSnapshot,        // zero: the snapshot
		"GO-9999-0002": "2026-03-04T05:06:07Z", // its own
		"GO-9999-0003": "2026-05-06T07:08:09Z",
		"GO-9999-0004": "2026-06-01T00:00:00Z",
	}
	for _, v := range vulns {
		if v.Modified != wantMod[v.ID] {
			t.Errorf("vulns.json %s: modified %s, want %s", v.ID, v.Modified, wantMod[v.ID])
		}
		var e struct{ Modified, Published string }
		decodeFile(t, filepath.Join(db, "ID", v.ID+".json"), &e)
		if e.Modified != v.Modified {
			t.Errorf("ID/%s.json: modified %s, index says %s", v.ID, e.Modified, v.Modified)
		}
		if e.Published == "0001-01-01T00:00:00Z" || e.Published > e.Modified {
			t.Errorf("ID/%s.json: published %s (modified %s)", v.ID, e.Published, e.Modified)
		}
	}
	if len(vulns) != 4 || vulns[3].ID != "GO-9999-0004" || !slices.Equal(vulns[3].Aliases, []string{"CVE-9999-0004", "GHSA-5555-6666-7777"}) {
		t.Errorf("vulns.json: %+v", vulns)
	}
}

// db.json is the newest entry time, whether its own or the snapshot.
func TestNewestModified(t *testing.T) {
	snap := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	entries, err := loadDir("testdata/osv", snap)
	if err != nil {
		t.Fatal(err)
	}
	db, err := newDatabase(entries)
	if err != nil {
		t.Fatal(err)
	}
	if got := formatTime(db.modified); got != "2026-06-01T00:00:00Z" {
		t.Errorf("modified %s, want GO-9999-0004's 2026-06-01T00:00:00Z", got)
	}
	if _, err := newDatabase(append(entries, entries[0])); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("duplicate id: %v", err)
	}
}

func TestLatestFixed(t *testing.T) {
	ev := func(pairs ...string) []osvRange {
		r := osvRange{Type: "SEMVER"}
		for i := 0; i < len(pairs); i += 2 {
			r.Events = append(r.Events, struct {
				Introduced string `json:"introduced"`
				Fixed      string `json:"fixed"`
			}{pairs[i], pairs[i+1]})
		}
		return []osvRange{r}
	}
	for _, c := range []struct {
		ranges []osvRange
		want   string
	}{
		{nil, ""},
		{ev("0", ""), ""},
		{ev("0", "", "", "1.2.3"), "1.2.3"},
		{ev("0", "", "", "1.10.0", "1.2.0", "", "", "1.9.0"), "1.10.0"}, // semver order, not text
		{ev("0", "", "", "1.0.0", "2.0.0", ""), ""},
		{ev("1.5.0", "", "", "1.6.0-rc.1"), "1.6.0-rc.1"},
		{[]osvRange{{Type: "ECOSYSTEM", Events: ev("0", "", "", "9.9.9")[0].Events}}, ""},
	} {
		if got := latestFixed(c.ranges); got != c.want {
			t.Errorf("latestFixed(%+v) = %q, want %q", c.ranges, got, c.want)
		}
	}
}

// Member order and every member survive; only the times change.
func TestRewriteTimes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"id":"A","modified":"0001-01-01T00:00:00Z","published":"x","z":[1, 2]}`,
			`{"id":"A","modified":"M","published":"P","z":[1,2]}`},
		{`{"z":{"a":"\u003c"},"id":"A"}`, `{"z":{"a":"\u003c"},"id":"A","modified":"M","published":"P"}`},
		{` { "published" : "x" , "id":"A"} `, `{"published":"P","id":"A","modified":"M"}`},
		{`{"ID":"A","Modified":"x","puBlished":""}`, `{"ID":"A","modified":"M","published":"P"}`},
	} {
		got, err := rewriteTimes([]byte(c.in), "M", "P")
		if err != nil || string(got) != c.want {
			t.Errorf("rewriteTimes(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{`[]`, `{"id":"A","id":"B"}`, `{"id":"A","ID":"B"}`, `{"id":"A"} {}`, `{"id":`, ``} {
		if got, err := rewriteTimes([]byte(in), "M", "P"); err == nil {
			t.Errorf("rewriteTimes(%s) = %s, want an error", in, got)
		}
	}
}

func TestBadInput(t *testing.T) {
	write := func(t *testing.T, name, body string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, c := range []struct{ name, file, body, want string }{
		{"not JSON", "GO-1.json", `{`, "decode OSV entry"},
		{"unsafe id", "x.json", `{"id":"../../etc/passwd"}`, "not a safe file name"},
		{"empty id", "x.json", `{"id":""}`, "not a safe file name"},
		{"dot dot id", "a..b.json", `{"id":"a..b"}`, "not a safe file name"},
		{"file name", "GO-2.json", `{"id":"GO-1"}`, "must be named <id>.json"},
		{"bad time", "GO-1.json", `{"id":"GO-1","modified":"yesterday"}`, "modified: not an RFC 3339 time"},
		{"year 0 in UTC", "GO-1.json", `{"id":"GO-1","modified":"0000-01-01T00:00:00+01:00"}`, "outside the years 0001 to 9999"},
		{"bad published", "GO-1.json", `{"id":"GO-1","published":"2026-13-01T00:00:00Z"}`, "published: not an RFC 3339 time"},
		{"no entries", "README.md", `hello`, "no OSV entries"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := write(t, c.file, c.body)
			var out, errb bytes.Buffer
			code := run([]string{"-osv", dir, "-version", fixtureVersion, "-out", filepath.Join(t.TempDir(), "db")}, &out, &errb)
			if code != 1 || !strings.Contains(errb.String(), c.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errb.String(), c.want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "db")
	for _, args := range [][]string{
		{},
		{"-osv", "testdata/osv", "-out", out},
		{"-osv", "testdata/osv", "-version", "v1.2.3", "-out", out}, // not a pseudo-version
		{"-osv", "testdata/osv", "-version", fixtureVersion, "-out", out, "extra"},
		{"-nope"},
	} {
		var o, e bytes.Buffer
		if code := run(args, &o, &e); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, e.String())
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("usage errors created %s", out)
	}
}

// An existing -out is never overwritten, and a failed build leaves nothing.
func TestOutExists(t *testing.T) {
	out := t.TempDir()
	var o, e bytes.Buffer
	if code := run([]string{"-osv", "testdata/osv", "-version", fixtureVersion, "-out", out}, &o, &e); code != 1 || !strings.Contains(e.String(), "exists") {
		t.Errorf("exit %d (%s), want 1: exists", code, e.String())
	}
	parent := t.TempDir()
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "GO-1.json"), []byte(`{"id":"GO-2"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run([]string{"-osv", bad, "-version", fixtureVersion, "-out", filepath.Join(parent, "db")}, &o, &e); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if des, _ := os.ReadDir(parent); len(des) != 0 {
		t.Errorf("a failed build left %v", des)
	}
}

// pinnedGovulncheck returns the govulncheck version scripts/govulncheck.sh pins.
func pinnedGovulncheck(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^GOVULNCHECK_VERSION=(v[0-9][^\s]*)$`).FindSubmatch(readFile(t, "../../scripts/govulncheck.sh"))
	if m == nil {
		t.Fatal("scripts/govulncheck.sh pins no GOVULNCHECK_VERSION=v...")
	}
	return string(m[1])
}

// The pinned govulncheck reads the fixture database: the fixture module calls
// language.Parse (GO-9999-0001, a symbol-level finding: exit status 3), only
// imports the package of GO-9999-0003 (a package-level finding, not a
// failure), is past GO-9999-0002's fix and does not use GO-9999-0004's
// modules. The database date is the one the scan reports.
func TestGovulncheckReadsDB(t *testing.T) {
	version := pinnedGovulncheck(t)
	bin := t.TempDir()
	install := exec.Command("go", "install", "golang.org/x/vuln/cmd/govulncheck@"+version)
	install.Dir = bin // outside this module: `go install pkg@version` needs no go.mod
	install.Env = append(os.Environ(), "GOBIN="+bin, "GOWORK=off")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install govulncheck@%s (through the Go module proxy): %v\n%s", version, err, out)
	}
	db := buildFixture(t)
	mod, err := filepath.Abs("testdata/mod")
	if err != nil {
		t.Fatal(err)
	}
	scan := func(args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(bin, "govulncheck"), append([]string{"-db", "file://" + filepath.ToSlash(db), "-C", mod}, append(args, "./...")...)...)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("govulncheck: %v\n%s", err, out)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}

	text, code := scan()
	if code != 3 || !strings.Contains(text, "Vulnerability #1: GO-9999-0001") || strings.Contains(text, "Vulnerability #2") {
		t.Errorf("text scan: exit %d, want 3 and exactly GO-9999-0001 at symbol level:\n%s", code, text)
	}

	out, code := scan("-format", "json")
	if code != 0 {
		t.Errorf("json scan: exit %d:\n%s", code, out)
	}
	var config struct {
		DBLastModified string `json:"db_last_modified"`
		ScannerVersion string `json:"scanner_version"`
	}
	symbol, pkgLevel := map[string]bool{}, map[string]bool{}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var msg struct {
			Config  *json.RawMessage `json:"config"`
			Finding *struct {
				OSV   string `json:"osv"`
				Trace []struct {
					Function string `json:"function"`
				} `json:"trace"`
			} `json:"finding"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("json scan output: %v\n%s", err, out)
		}
		if msg.Config != nil {
			if err := json.Unmarshal(*msg.Config, &config); err != nil {
				t.Fatal(err)
			}
		}
		if f := msg.Finding; f != nil && len(f.Trace) > 0 {
			if f.Trace[0].Function != "" {
				symbol[f.OSV] = true
			} else {
				pkgLevel[f.OSV] = true
			}
		}
	}
	if config.DBLastModified != fixtureSnapshot || config.ScannerVersion != version {
		t.Errorf("config %+v, want db_last_modified %s, scanner %s", config, fixtureSnapshot, version)
	}
	if !symbol["GO-9999-0001"] || len(symbol) != 1 {
		t.Errorf("symbol-level findings %v, want GO-9999-0001 only", symbol)
	}
	if !pkgLevel["GO-9999-0003"] || pkgLevel["GO-9999-0002"] || pkgLevel["GO-9999-0004"] {
		t.Errorf("package-level findings %v, want GO-9999-0003 (and not 0002, 0004)", pkgLevel)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gunzip(t *testing.T, p string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(readFile(t, p)))
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return b
}

func decodeFile(t *testing.T, p string, v any) {
	t.Helper()
	if err := json.Unmarshal(readFile(t, p), v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}
