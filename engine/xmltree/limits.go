package xmltree

// Limits bounds the resources one document may take. A zero or negative field
// means "use the default" (see DefaultLimits), so a partially filled Limits is
// never unlimited by accident.
type Limits struct {
	MaxBytes   int64 // input size in bytes, before any transcoding
	MaxDepth   int   // element nesting depth; the root element is depth 1
	MaxNodes   int   // nodes of all kinds, the document node included
	MaxAttrs   int   // attributes written on one element, namespace declarations included
	MaxNameLen int   // bytes in one qualified name (element, attribute, PI target)
	MaxTextLen int   // bytes in one value (text node, attribute, comment, PI) after expansion
}

// Default limit values.
const (
	DefaultMaxBytes   = 20 << 20
	DefaultMaxDepth   = 256
	DefaultMaxNodes   = 2_000_000
	DefaultMaxAttrs   = 256
	DefaultMaxNameLen = 1024
	DefaultMaxTextLen = 10 << 20
)

// maxInput is the hard ceiling on input size whatever the limits say: offsets
// and value lengths are stored in 31 bits.
const maxInput = 1<<31 - 1

// DefaultLimits returns the limits used by the service.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:   DefaultMaxBytes,
		MaxDepth:   DefaultMaxDepth,
		MaxNodes:   DefaultMaxNodes,
		MaxAttrs:   DefaultMaxAttrs,
		MaxNameLen: DefaultMaxNameLen,
		MaxTextLen: DefaultMaxTextLen,
	}
}

// withDefaults fills zero or negative fields with the defaults and clamps
// everything to what the tree can represent.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxBytes > maxInput {
		l.MaxBytes = maxInput
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = d.MaxNodes
	}
	if l.MaxNodes > maxInput {
		l.MaxNodes = maxInput
	}
	if l.MaxAttrs <= 0 {
		l.MaxAttrs = d.MaxAttrs
	}
	if l.MaxNameLen <= 0 {
		l.MaxNameLen = d.MaxNameLen
	}
	if l.MaxTextLen <= 0 {
		l.MaxTextLen = d.MaxTextLen
	}
	if l.MaxTextLen > maxInput {
		l.MaxTextLen = maxInput
	}
	if l.MaxNameLen > maxInput {
		l.MaxNameLen = maxInput
	}
	return l
}
