package xpath

import (
	"fmt"
	"strings"
)

// Error is a static (compile-time) error: the byte offset in the source,
// the construct concerned (a token, function name, variable, prefix) and a
// message.
type Error struct {
	Offset    int
	Construct string
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("xpath: %s at offset %d: %q", e.Msg, e.Offset, e.Construct)
}

// Caret returns the expression with a caret under the error offset, for
// diagnostics anchored to the source:
//
//	cbc:ID = = 1
//	         ^
func (e *Error) Caret(src string) string {
	off := min(max(e.Offset, 0), len(src))
	line, col := src, off
	if i := strings.LastIndexByte(src[:off], '\n'); i >= 0 {
		line, col = src[i+1:], off-i-1
	}
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	pad := make([]byte, 0, col)
	for _, c := range []byte(line[:min(col, len(line))]) {
		if c == '\t' {
			pad = append(pad, '\t')
		} else if c < 0x80 || c >= 0xC0 {
			pad = append(pad, ' ')
		}
	}
	return line + "\n" + string(pad) + "^"
}
