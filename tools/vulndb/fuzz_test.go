package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzParseEntry: whatever the bytes, parseEntry fails cleanly or returns a
// safe id, a non-zero time and compact JSON that parses back to the same bytes.
func FuzzParseEntry(f *testing.F) {
	files, _ := filepath.Glob("testdata/osv/*.json")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"id":"A","modified":"2026-01-01T00:00:00+02:00","affected":[{"package":{"name":"m"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"1"}]}]}]}`))
	f.Add([]byte(`{"id":"A","id":"A"}`))
	snapshot := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := parseEntry(data, snapshot)
		if err != nil {
			return
		}
		if !idPattern.MatchString(e.id) || e.modified.IsZero() {
			t.Fatalf("id %q, modified %v", e.id, e.modified)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, e.json); err != nil || !bytes.Equal(c.Bytes(), e.json) {
			t.Fatalf("not compact JSON (%v): %s", err, e.json)
		}
		again, err := parseEntry(e.json, snapshot)
		if err != nil {
			t.Fatalf("the output does not parse: %v\n%s", err, e.json)
		}
		if !bytes.Equal(again.json, e.json) || again.id != e.id || !again.modified.Equal(e.modified) {
			t.Fatalf("not stable:\n%s\n%s", e.json, again.json)
		}
	})
}
