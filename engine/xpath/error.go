package xpath

import "fmt"

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
