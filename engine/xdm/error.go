package xdm

import "fmt"

// Error is an XPath dynamic (or type) error with its standard code, e.g.
// FORG0001 (invalid value for cast), XPTY0004 (type error), FOAR0001
// (division by zero), FORX0002 (invalid regular expression), FOCA0002
// (invalid lexical value).
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Standard error codes used by the engine.
const (
	ErrInvalidCast    = "FORG0001" // invalid value for cast/constructor
	ErrType           = "XPTY0004" // type error
	ErrDivZero        = "FOAR0001" // division by zero
	ErrOverflow       = "FOAR0002" // numeric overflow
	ErrInvalidLexical = "FOCA0002" // invalid lexical value
	ErrNaNCast        = "FOCA0005"
	// ErrDecimalTooLarge: a lexical decimal with more than MaxDecimalDigits
	// digits (F&O: "input value too large for decimal").
	ErrDecimalTooLarge = "FOCA0001"
	ErrRegex           = "FORX0002" // invalid regular expression
	ErrRegexFlags      = "FORX0001" // invalid regular expression flags
	ErrRegexEmpty      = "FORX0003" // regex matches zero-length string
	ErrReplacement     = "FORX0004" // invalid replacement string
	ErrEBV             = "FORG0006" // invalid argument type (EBV)
	ErrCardinality     = "FORG0003" // zero-or-one called with more than one item
	ErrNotNode         = "XPTY0019" // path step on an atomic value
	ErrMixedPath       = "XPTY0018" // path result mixes nodes and atomics
	ErrNoContext       = "XPDY0002" // context item undefined
	ErrCodepoint       = "FOCH0001" // invalid code point
	ErrExternal        = "FOER0000" // unidentified error (e.g. from an extension function)
	ErrCancelled       = "XXCANCEL" // evaluation stopped by its context
)
