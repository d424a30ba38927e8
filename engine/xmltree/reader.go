package xmltree

import (
	"bytes"
	"fmt"
	"io"
)

// ParseReader reads at most lim.MaxBytes+1 bytes from r and parses them, so an
// oversized body is a *LimitError without being buffered whole. The read
// buffer becomes the document's text, so nothing is copied twice. Read failures
// are returned wrapped ("xmltree: reading input: ..."); everything else is as
// for Parse.
func ParseReader(r io.Reader, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, lim.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("xmltree: reading input: %w", err)
	}
	if n > lim.MaxBytes {
		return nil, &LimitError{Limit: "MaxBytes", Max: lim.MaxBytes, Line: 1 + bytes.Count(buf.Bytes()[:lim.MaxBytes], []byte{'\n'})}
	}
	// buf is private to this call and dropped on return, so the document may
	// keep its bytes without a copy.
	return parse(buf.Bytes(), lim, true)
}
