package httpapi

import (
	"context"
	"errors"
	"fmt"
	"github.com/einvoice-dev/einvoice/formats/xmlio"
	"net/http"
	"strconv"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// Kind classifies an error for the transport. Kind.Status is the one table
// from error kind to HTTP status; anything unclassified is KindInternal, a
// logged 500.
type Kind int

// Error kinds.
const (
	KindInternal             Kind = iota // 500, logged with the request id
	KindInvalid                          // 422, body HTTPValidationError
	KindUnauthenticated                  // 401 + WWW-Authenticate
	KindForbidden                        // 403 (gateway secret)
	KindNotFound                         // 404
	KindMethodNotAllowed                 // 405 + Allow
	KindTooLarge                         // 413
	KindUnsupportedMediaType             // 415
	KindRateLimited                      // 429 + Retry-After
	KindNotImplemented                   // 501
	KindUnavailable                      // 503 (store down)
	KindTimeout                          // 503 (request ran past its time limit)
)

// Status is the error-kind -> HTTP status table.
func (k Kind) Status() int {
	switch k {
	case KindInvalid:
		return http.StatusUnprocessableEntity
	case KindUnauthenticated:
		return http.StatusUnauthorized
	case KindForbidden:
		return http.StatusForbidden
	case KindNotFound:
		return http.StatusNotFound
	case KindMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case KindUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case KindRateLimited:
		return http.StatusTooManyRequests
	case KindNotImplemented:
		return http.StatusNotImplemented
	case KindUnavailable, KindTimeout:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// Error is an error with a transport classification. Detail is the
// caller-facing message (never internal paths); Fields are the 422 entries;
// Err is the cause, logged but never sent.
type Error struct {
	Kind       Kind
	Detail     string
	Fields     []wire.ValidationError
	RetryAfter time.Duration // KindRateLimited
	Allow      string        // KindMethodNotAllowed
	Err        error
}

func (e *Error) Error() string {
	msg := e.Detail
	if msg == "" && len(e.Fields) > 0 {
		msg = e.Fields[0].Msg
	}
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", msg, e.Err)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// invalid builds a KindInvalid error from validation entries.
func invalid(fields ...wire.ValidationError) *Error {
	return &Error{Kind: KindInvalid, Fields: fields}
}

// classify maps any error to an *Error.
func classify(err error, timeout time.Duration) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var re *ops.RequestError
	if errors.As(err, &re) {
		return &Error{Kind: KindInvalid, Fields: re.Fields, Err: err}
	}
	var ni *ops.NotImplementedError
	if errors.As(err, &ni) {
		return &Error{Kind: KindNotImplemented, Detail: ni.Error(), Err: err}
	}
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &Error{Kind: KindTooLarge, Detail: fmt.Sprintf("request body exceeds the limit of %d bytes", mb.Limit), Err: err}
	}
	if errors.Is(err, xmlio.ErrInvalidChar) {
		// A value no decoder caught that XML cannot carry (the model
		// decoder rejects them at their JSON path): still the caller's input.
		return invalid(wire.ValidationError{Loc: []any{"body"}, Type: wire.TypeValueError,
			Msg: "Value error, the request contains a character XML 1.0 cannot carry: " + err.Error()})
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return timeoutError(timeout, err)
	}
	if errors.Is(err, ErrUnavailable) {
		return &Error{Kind: KindUnavailable, Detail: "the key store is unavailable; retry later", Err: err}
	}
	return &Error{Kind: KindInternal, Err: err}
}

func timeoutError(timeout time.Duration, err error) *Error {
	return &Error{Kind: KindTimeout, Detail: fmt.Sprintf("the request did not complete within its time limit of %s; retry later or send a smaller document", timeout), Err: err}
}

// writeError writes err as a JSON error body with the status of its kind.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := classify(err, s.cfg.RequestTimeout)
	info := infoFrom(r.Context())
	op, _ := info.snapshot()
	status := e.Kind.Status()
	rid := info.id
	if rid == "-" {
		rid = ""
	}
	h := w.Header()
	switch e.Kind {
	case KindUnauthenticated:
		h.Set("WWW-Authenticate", `ApiKey header="x-api-key"`)
	case KindRateLimited:
		secs := int64((e.RetryAfter + time.Second - 1) / time.Second)
		if secs < 1 {
			secs = 1
		}
		h.Set("Retry-After", strconv.FormatInt(secs, 10))
	case KindMethodNotAllowed:
		h.Set("Allow", e.Allow)
	}
	if e.Kind == KindInvalid {
		fields := e.Fields
		if fields == nil {
			fields = []wire.ValidationError{}
		}
		s.writeJSON(w, status, wire.HTTPValidationError{Detail: fields, RequestID: rid})
		return
	}
	detail := e.Detail
	if e.Kind == KindInternal {
		s.cfg.Logger.ErrorContext(r.Context(), "internal error", "request_id", info.id, "op", op, "error", err)
		detail = "internal server error (request id " + info.id + ")"
	} else if e.Err != nil && status >= 500 {
		s.cfg.Logger.WarnContext(r.Context(), "request failed", "request_id", info.id, "op", op, "status", status, "error", e.Err)
	}
	s.writeJSON(w, status, wire.ErrorDetail{Detail: detail, RequestID: rid})
}
