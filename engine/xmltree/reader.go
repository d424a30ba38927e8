package xmltree

import (
	"bytes"
	"fmt"
	"io"
)

// ParseReader reads at most lim.MaxBytes+1 bytes from r and parses them, so an
// oversized body is a *LimitError without being buffered whole. Read failures
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
	return Parse(buf.Bytes(), lim)
}
