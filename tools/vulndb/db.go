package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/semver"
)

// entry is one OSV entry as the database needs it: the fields the indexes
// are made of, and its bytes as written to ID/<id>.json.
type entry struct {
	id       string
	modified time.Time
	aliases  []string
	modules  []moduleFix
	json     []byte // compact, with normalised timestamps
}

// moduleFix is one affected module of an entry and the version that fixes it
// for good ("" when none does).
type moduleFix struct {
	path  string
	fixed string
}

// osvMeta is the part of an OSV entry the indexes read.
type osvMeta struct {
	ID        string   `json:"id"`
	Modified  string   `json:"modified"`
	Published string   `json:"published"`
	Aliases   []string `json:"aliases"`
	Affected  []struct {
		Package struct {
			Name string `json:"name"`
		} `json:"package"`
		Ranges []osvRange `json:"ranges"`
	} `json:"affected"`
}

type osvRange struct {
	Type   string `json:"type"`
	Events []struct {
		Introduced string `json:"introduced"`
		Fixed      string `json:"fixed"`
	} `json:"events"`
}

// maxMembers bounds the members of an entry object (real ones have about 15).
const maxMembers = 1000

// idPattern bounds entry ids: they become file names.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// parseEntry reads one OSV entry. A zero or missing `modified` becomes
// snapshot; a zero or missing `published` becomes the resulting `modified`.
func parseEntry(data []byte, snapshot time.Time) (*entry, error) {
	var m osvMeta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("decode OSV entry: %w", err)
	}
	if !idPattern.MatchString(m.ID) || strings.Contains(m.ID, "..") {
		return nil, fmt.Errorf("OSV entry id %q is not a safe file name", m.ID)
	}
	modified, err := parseTime(m.Modified)
	if err != nil {
		return nil, fmt.Errorf("%s: modified: %w", m.ID, err)
	}
	if modified.IsZero() {
		modified = snapshot
	}
	published, err := parseTime(m.Published)
	if err != nil {
		return nil, fmt.Errorf("%s: published: %w", m.ID, err)
	}
	if published.IsZero() {
		published = modified
	}
	e := &entry{id: m.ID, modified: modified, aliases: m.Aliases}
	for _, a := range m.Affected {
		e.modules = append(e.modules, moduleFix{path: a.Package.Name, fixed: latestFixed(a.Ranges)})
	}
	e.json, err = rewriteTimes(data, formatTime(modified), formatTime(published))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.ID, err)
	}
	return e, nil
}

// parseTime reads an RFC 3339 time; "" is the zero time.
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not an RFC 3339 time: %w", err)
	}
	// In UTC it must still be writable as RFC 3339 (years 0001 to 9999).
	if t = t.UTC(); t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, fmt.Errorf("%s is outside the years 0001 to 9999 in UTC", s)
	}
	return t, nil
}

// formatTime is the OSV time format: RFC 3339 in UTC, whole seconds.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// latestFixed returns the highest SEMVER `fixed` version of the ranges, or ""
// when there is none or the vulnerability is introduced again after it.
func latestFixed(ranges []osvRange) string {
	fixed := ""
	for _, r := range ranges {
		if r.Type != "SEMVER" {
			continue
		}
		for _, ev := range r.Events {
			if ev.Fixed != "" && versionLess(fixed, ev.Fixed) {
				fixed = ev.Fixed
			}
		}
		for _, ev := range r.Events {
			if ev.Introduced != "" && ev.Introduced != "0" && versionLess(fixed, ev.Introduced) {
				fixed = ""
				break
			}
		}
	}
	return fixed
}

// versionLess orders OSV versions (semver without the "v"); "" is lowest.
func versionLess(a, b string) bool { return semver.Compare("v"+a, "v"+b) < 0 }

// rewriteTimes returns the object in data, compact, with the members
// "modified" and "published" set to the given times, keeping every other
// member and the member order. A missing one is added after "id" (or the
// other one). Duplicate member names are refused.
// When the input is what Go's encoder wrote (as every vulndb file is), the
// result is byte for byte what it writes for the entry: vulndb's validator
// (internal/database.Load) compares the two.
func rewriteTimes(data []byte, modified, published string) ([]byte, error) {
	type member struct {
		name  string
		value json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("OSV entry is not a JSON object")
	}
	var members []member
	// find returns the index of the member named name, matched the way
	// encoding/json matches names (case-insensitively), or -1.
	find := func(name string) int {
		return slices.IndexFunc(members, func(m member) bool { return strings.EqualFold(m.name, name) })
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read OSV entry: %w", err)
		}
		name, _ := tok.(string)
		// A second "ID" or "Modified" would make the entry ambiguous.
		if find(name) >= 0 {
			return nil, fmt.Errorf("OSV entry has member %q twice (names compare case-insensitively)", name)
		}
		if len(members) == maxMembers {
			return nil, fmt.Errorf("OSV entry has more than %d members", maxMembers)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("read OSV entry member %q: %w", name, err)
		}
		members = append(members, member{name, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("read OSV entry: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the OSV entry")
	}
	set := func(name, value, after string) {
		raw, _ := json.Marshal(value)
		if i := find(name); i >= 0 {
			members[i] = member{name, raw} // the name as Go's encoder writes it
			return
		}
		members = slices.Insert(members, find(after)+1, member{name, raw})
	}
	set("modified", modified, "id")
	set("published", published, "modified")

	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.name)
		b.Write(name)
		b.WriteByte(':')
		if err := json.Compact(&b, m.value); err != nil {
			return nil, fmt.Errorf("compact OSV entry member %q: %w", m.name, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// database is a set of entries with distinct ids, by id.
type database struct {
	modified time.Time
	entries  []*entry
}

func newDatabase(entries []*entry) (*database, error) {
	db := &database{entries: slices.Clone(entries)}
	slices.SortFunc(db.entries, func(a, b *entry) int { return strings.Compare(a.id, b.id) })
	for i, e := range db.entries {
		if i > 0 && db.entries[i-1].id == e.id {
			return nil, fmt.Errorf("OSV entry %s appears twice", e.id)
		}
		if e.modified.After(db.modified) {
			db.modified = e.modified
		}
	}
	return db, nil
}

// The index documents, in the field order of the published database.
type (
	dbMeta struct {
		Modified string `json:"modified"`
	}
	moduleIndex struct {
		Path  string       `json:"path"`
		Vulns []moduleVuln `json:"vulns"`
	}
	moduleVuln struct {
		ID       string `json:"id"`
		Modified string `json:"modified"`
		Fixed    string `json:"fixed,omitempty"`
	}
	vulnIndex struct {
		ID       string   `json:"id"`
		Modified string   `json:"modified"`
		Aliases  []string `json:"aliases,omitempty"`
	}
)

// files returns every file of the database (without the .gz twins): path
// relative to the database root → contents.
func (db *database) files() (map[string][]byte, error) {
	out := map[string][]byte{}
	byModule := map[string]*moduleIndex{}
	vulns := []vulnIndex{}
	for _, e := range db.entries {
		mod := formatTime(e.modified)
		vulns = append(vulns, vulnIndex{ID: e.id, Modified: mod, Aliases: e.aliases})
		for _, m := range e.modules {
			mi := byModule[m.path]
			if mi == nil {
				mi = &moduleIndex{Path: m.path, Vulns: []moduleVuln{}}
				byModule[m.path] = mi
			}
			// Entries are sorted by id, so each module's list is too.
			mi.Vulns = append(mi.Vulns, moduleVuln{ID: e.id, Modified: mod, Fixed: m.fixed})
		}
		out["ID/"+e.id+".json"] = e.json
	}
	modules := make([]*moduleIndex, 0, len(byModule))
	for _, mi := range byModule {
		modules = append(modules, mi)
	}
	slices.SortFunc(modules, func(a, b *moduleIndex) int { return strings.Compare(a.Path, b.Path) })
	for name, v := range map[string]any{
		"index/db.json":      dbMeta{Modified: formatTime(db.modified)},
		"index/modules.json": modules,
		"index/vulns.json":   vulns,
	} {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

// write writes the database into dir (which must exist), every file also
// gzipped.
func (db *database) write(dir string) error {
	files, err := db.files()
	if err != nil {
		return err
	}
	for _, sub := range []string{"index", "ID"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", sub, err)
		}
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		if err := writeGzip(p+".gz", b); err != nil {
			return err
		}
	}
	return nil
}

func writeGzip(path string, b []byte) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("gzip %s: %w", path, err)
	}
	if _, err := zw.Write(b); err != nil {
		return fmt.Errorf("gzip %s: %w", path, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("gzip %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// loadDir reads every <id>.json OSV file of dir (not recursive; other files
// are ignored). A file's name must be its entry's id.
func loadDir(dir string, snapshot time.Time) ([]*entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read OSV directory: %w", err)
	}
	var entries []*entry
	for _, de := range des {
		if de.IsDir() || filepath.Ext(de.Name()) != ".json" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			return nil, fmt.Errorf("read OSV entry: %w", err)
		}
		e, err := parseEntry(data, snapshot)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", de.Name(), err)
		}
		if de.Name() != e.id+".json" {
			return nil, fmt.Errorf("%s: holds entry %s (the file must be named <id>.json)", de.Name(), e.id)
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("no OSV entries (<id>.json) in %s", dir)
	}
	return entries, nil
}

// build reads the OSV directory and writes the database to out, which must not
// exist: into a temporary sibling first, renamed into place at the end.
func build(osvDir, out string, snapshot time.Time) (*database, error) {
	if _, err := os.Stat(out); err == nil {
		return nil, fmt.Errorf("%s exists; remove it or choose another -out", out)
	}
	entries, err := loadDir(osvDir, snapshot)
	if err != nil {
		return nil, err
	}
	db, err := newDatabase(entries)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, ".vulndb-tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if err := db.write(tmp); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, out); err != nil {
		return nil, fmt.Errorf("move the database into place: %w", err)
	}
	return db, nil
}
