package xmltree

import "fmt"

// SyntaxError reports input that is not well-formed XML (or uses a feature the
// parser refuses, such as a DTD). Line and Col are 1-based; Col counts
// characters (not bytes) from the start of the line.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("xml syntax error at line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// LimitError reports input that exceeds one of the Limits. Limit is the name of
// the Limits field ("MaxDepth", ...), Max its value and Line the 1-based line
// where the limit was crossed.
type LimitError struct {
	Limit string
	Max   int64
	Line  int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("xml limit exceeded at line %d: %s (maximum %d)", e.Line, e.Limit, e.Max)
}
