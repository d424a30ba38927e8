package wire

// HTTPValidationError is the 422 body, exactly the FastAPI/Pydantic shape.
type HTTPValidationError struct {
	Detail    []ValidationError `json:"detail,omitempty"`
	RequestID string            `json:"request_id,omitempty" doc:"The request id (also in the X-Request-Id header): quote it when reporting a problem."`
}

// ValidationError is one entry of an HTTPValidationError. Loc holds strings and
// integers: the first element names the request part ("body", "query",
// "header"), the rest is the path inside it.
type ValidationError struct {
	Loc   []any          `json:"loc" required:"true" doc:"Path of the offending input: \"body\"/\"query\"/\"header\" followed by property names and array indices."`
	Msg   string         `json:"msg" required:"true"`
	Type  string         `json:"type" required:"true" doc:"Machine-readable error type, e.g. missing, enum, json_invalid, xml_syntax, limit_exceeded, rule_violation, conversion_loss."`
	Input any            `json:"input,omitempty" doc:"The offending input value, when small and known."`
	Ctx   map[string]any `json:"ctx,omitempty" doc:"Additional context, e.g. expected values or a line number."`
}

// ErrorDetail is the body of every non-422 error: a single human-readable string.
type ErrorDetail struct {
	Detail    string `json:"detail" required:"true"`
	RequestID string `json:"request_id,omitempty" doc:"The request id (also in the X-Request-Id header): quote it when reporting a problem."`
}

// Error types used in ValidationError.Type beyond Pydantic's own.
const (
	TypeMissing        = "missing"
	TypeEnum           = "enum"
	TypeJSONInvalid    = "json_invalid"
	TypeExtraForbidden = "extra_forbidden"
	TypeXMLSyntax      = "xml_syntax"
	TypeLimitExceeded  = "limit_exceeded"
	TypeRuleViolation  = "rule_violation"
	TypeConversionLoss = "conversion_loss"
	TypeValueError     = "value_error"
	TypeNotLanded      = "not_available"
)
