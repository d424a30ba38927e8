package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/einvoice-dev/einvoice/engine"
)

// ExpectedFinding is one fired assert/report (or a stage error) of the reference.
type ExpectedFinding struct {
	ID    string `json:"id"`
	Flag  string `json:"flag"`
	Kind  string `json:"kind"` // assert, report or stage-error
	Loc   string `json:"loc"`
	Text  string `json:"text"`
	Stage string `json:"stage"`
}

// Expect is the success/error/warning lists of a vefa test.
type Expect struct {
	Success []string `json:"success"`
	Error   []string `json:"error"`
	Warning []string `json:"warning"`
}

// ExpectedLine is one line of an expected/<ruleset>/<corpus>.jsonl file.
// Unit-test files add the vefa fields (Test .. Problems).
type ExpectedLine struct {
	File    string            `json:"file"`
	Ruleset string            `json:"ruleset"`
	Fired   []ExpectedFinding `json:"fired"`

	Test          string   `json:"test"`
	Index         int      `json:"index"`
	Configuration string   `json:"configuration"`
	Pass          bool     `json:"pass"`
	Description   string   `json:"description"`
	Scope         []string `json:"scope"`
	Expect        Expect   `json:"expect"`
	FiredInScope  []string `json:"fired_in_scope"`
	Problems      []string `json:"problems"`

	Summary json.RawMessage `json:"summary"`
}

// ReadExpected reads a JSONL expected-results file, skipping summary lines.
func ReadExpected(path string) ([]ExpectedLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read expected: %w", err)
	}
	var out []ExpectedLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l ExpectedLine
		if err := json.Unmarshal(line, &l); err != nil {
			return nil, fmt.Errorf("read expected %s:%d: %w", path, n, err)
		}
		if l.Summary != nil {
			continue
		}
		if l.File == "" {
			return nil, fmt.Errorf("read expected %s:%d: no file", path, n)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read expected %s: %w", path, err)
	}
	return out, nil
}

// SharedDir returns the shared directory: $EINVOICE_SHARED, else ../shared
// next to the repository root (found by walking up to go.mod).
func SharedDir() (string, error) {
	if s := os.Getenv("EINVOICE_SHARED"); s != "" {
		return s, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("conformance: go.mod not found; set EINVOICE_SHARED")
		}
		dir = parent
	}
}

// Diff compares our findings with the reference's, in order, on id, flag,
// kind, location and message text. It returns one line per disagreement.
func Diff(got []engine.Finding, want []ExpectedFinding) []string {
	var out []string
	n := max(len(got), len(want))
	for i := 0; i < n; i++ {
		switch {
		case i >= len(got):
			w := want[i]
			out = append(out, fmt.Sprintf("#%d missing: %s %s %s %s %q", i, w.ID, w.Flag, w.Kind, w.Loc, w.Text))
		case i >= len(want):
			g := got[i]
			out = append(out, fmt.Sprintf("#%d extra:   %s %s %s %s %q", i, g.RuleID, g.Flag, g.Kind, g.Location, g.Message))
		default:
			g, w := got[i], want[i]
			if w.Kind == "stage-error" && g.Kind == w.Kind && g.RuleID == w.ID {
				continue // an aborted stage: only the error code is comparable
			}
			if g.RuleID != w.ID || g.Flag != w.Flag || g.Kind != w.Kind || g.Location != w.Loc || !sameText(g.Message, w.Text) {
				out = append(out, fmt.Sprintf("#%d differs:\n\tours: %s %s %s %s %q\n\tref:  %s %s %s %s %q", i,
					g.RuleID, g.Flag, g.Kind, g.Location, g.Message, w.ID, w.Flag, w.Kind, w.Loc, w.Text))
			}
		}
		if len(out) >= 20 {
			out = append(out, "... (more)")
			break
		}
	}
	return out
}

// StageErrorFindings turns an aborted stage into the reference's form: a
// single stage-error entry whose id is the XPath error code.
func StageErrorFindings(err error) []engine.Finding {
	var ee *engine.EvalError
	code := "ERROR"
	if errors.As(err, &ee) && ee.Code() != "" {
		code = ee.Code()
	}
	return []engine.Finding{{RuleID: code, Kind: "stage-error", Message: strings.TrimSpace(err.Error())}}
}

// truncatedText matches a reference message cut by the expected-file
// writer: its first characters, then "...[+N chars]".
var truncatedText = regexp.MustCompile(`^(?s)(.*)\.\.\.\[\+([0-9]+) chars\]$`)

// sameText compares a message with the reference's; a truncated reference
// text matches when ours starts with the kept part and has exactly the
// number of characters (code points) the marker says were cut.
func sameText(got, want string) bool {
	if got == want {
		return true
	}
	m := truncatedText.FindStringSubmatch(want)
	if m == nil || !strings.HasPrefix(got, m[1]) {
		return false
	}
	n, err := strconv.Atoi(m[2])
	return err == nil && utf8.RuneCountInString(got)-utf8.RuneCountInString(m[1]) == n
}
