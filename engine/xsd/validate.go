package xsd

import (
	"context"
	"errors"
	"fmt"
	"runtime/cgo"
	"strconv"
)

// Levels of an Error, from libxml2's error levels.
const (
	LevelWarning = "warning"
	LevelError   = "error"
	LevelFatal   = "fatal"
)

// maxFindings bounds the findings one validation collects; further ones are
// counted and reported by a single final entry.
const maxFindings = 1000

// Error is one finding: an XML well-formedness error (Level "fatal") or an
// XML Schema validity error ("error") or warning. Line is 1-based (0 when
// libxml2 gives none); Col is 1-based where libxml2 reports a column (XML
// syntax errors) and 0 otherwise (schema validity errors carry only a line).
type Error struct {
	Line, Col int
	Level     string // "error" | "warning" | "fatal"
	Message   string
}

// String renders "line:col: level: message".
func (e Error) String() string {
	pos := strconv.Itoa(e.Line)
	if e.Col > 0 {
		pos += ":" + strconv.Itoa(e.Col)
	}
	return pos + ": " + e.Level + ": " + e.Message
}

// ErrDoctype is returned when a document carries a DOCTYPE declaration. Such
// documents are refused, not validated: nothing in them is parsed further and
// no file or URL they name is read.
var ErrDoctype = errors.New("xsd: document has a DOCTYPE declaration; refused")

// ErrTooLarge is returned for documents libxml2 cannot take (2 GiB or more).
var ErrTooLarge = errors.New("xsd: document too large")

// collector gathers the findings of one validation; reached from C through a
// cgo.Handle, used by one goroutine only.
type collector struct {
	errs            []Error
	suppressed      int
	suppressedLevel int
}

func (c *collector) addError(level, line, col int, msg, _ string) {
	if len(c.errs) >= maxFindings {
		c.suppressed++
		c.suppressedLevel = max(c.suppressedLevel, level)
		return
	}
	c.errs = append(c.errs, Error{Line: line, Col: col, Level: levelName(level), Message: msg})
}

func (c *collector) findings() []Error {
	if c.suppressed > 0 {
		c.errs = append(c.errs, Error{
			Level:   levelName(c.suppressedLevel),
			Message: fmt.Sprintf("too many errors: %d more not reported", c.suppressed),
		})
	}
	return c.errs
}

// Validate parses doc and validates it against the schema. It returns the
// findings (nil or empty when the document is valid) and an error only when
// validation could not run to the end: ctx done, ErrDoctype, ErrTooLarge,
// ErrClosed, or a libxml2 internal failure. A document that is not
// well-formed yields "fatal" findings and no error.
//
// ctx is checked before and after: libxml2 cannot be interrupted, so a
// validation that has started runs to completion (bounded by libxml2's
// default parser limits, XML_PARSE_HUGE being off). If ctx is done when it
// returns, the findings are discarded and ctx's error returned (fail closed).
func (s *Schema) Validate(ctx context.Context, doc []byte) ([]Error, error) {
	return s.validate(ctx, doc, pass{prescan: true, stream: true})
}

// pass says how validate runs: prescan, the DOCTYPE pre-scan in Go (off in
// tests of the in-parser refusal); stream, the streaming pass first (see
// cValidate; off in tests holding it to the tree walk alone).
type pass struct{ prescan, stream bool }

// validate is Validate with the passes chosen by p.
func (s *Schema) validate(ctx context.Context, doc []byte, p pass) ([]Error, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("xsd: validate: %w", err)
	}
	if len(doc) > maxDocumentLength {
		return nil, ErrTooLarge
	}
	if len(doc) == 0 {
		return []Error{{Level: LevelFatal, Message: "Document is empty"}}, nil
	}
	if p.prescan && scanProlog(doc) == prologDoctype {
		return nil, ErrDoctype
	}

	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ptr == nil {
		return nil, ErrClosed
	}
	c := &collector{}
	h := cgo.NewHandle(c)
	defer h.Delete()
	rc := cValidate(s.ptr, doc, h, p.stream)

	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("xsd: validate: %w", err)
	}
	switch {
	case rc == 0:
		return c.findings(), nil
	case rc > 0:
		if len(c.errs) == 0 && c.suppressed == 0 {
			// Never let an invalid verdict go without a finding.
			c.errs = append(c.errs, Error{Level: LevelError, Message: fmt.Sprintf("document is not schema-valid (libxml2 code %d)", rc)})
		}
		return c.findings(), nil
	case rc == rcNotParsed:
		if len(c.errs) == 0 && c.suppressed == 0 {
			c.errs = append(c.errs, Error{Level: LevelFatal, Message: "document is not well-formed"})
		}
		return c.findings(), nil
	case rc == rcDoctypeRefused:
		return nil, ErrDoctype
	case rc == rcOutOfMemory:
		return nil, errors.New("xsd: validate: libxml2 out of memory")
	default:
		return nil, fmt.Errorf("xsd: validate: libxml2 internal error %d", rc)
	}
}

// streamsClean reports whether the streaming pass alone finds doc clean
// (tests use it to see that valid documents take it).
func (s *Schema) streamsClean(doc []byte) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.ptr != nil && len(doc) > 0 && len(doc) <= maxDocumentLength && cClean(s.ptr, doc)
}
