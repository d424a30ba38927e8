package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// input is what a handler receives: the authenticated key (protected routes),
// the parsed *Params value, the raw body and, for JSON and multipart routes,
// the decoded body.
type input struct {
	key       *APIKey
	params    any
	mediaType string
	body      []byte
	decoded   any
	form      *multipart.Form
}

// serveRoute runs the fixed admission sequence of every route:
// gateway secret (403) -> API key (401/503) -> rate limit (429) -> metering ->
// media type (415) -> body limit (413) -> parameters and body (422) ->
// capability check (501) -> handler.
func (s *Server) serveRoute(w http.ResponseWriter, r *http.Request, rt *Route) {
	ctx := r.Context()
	in := &input{}
	if rt.Protected {
		key, err := s.admit(ctx, r, rt)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		in.key = key
	}
	if err := s.readInput(r, rt, in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if in.form != nil {
		defer func() { _ = in.form.RemoveAll() }()
	}
	if !rt.Landed || rt.handle == nil {
		s.writeError(w, r, &Error{Kind: KindNotImplemented, Detail: rt.OperationID + " is not implemented yet: " + rt.Capability})
		return
	}
	if err := rt.handle(ctx, w, in); err != nil {
		s.writeError(w, r, err)
	}
}

// admit authenticates, rate-limits and meters a protected call.
func (s *Server) admit(ctx context.Context, r *http.Request, rt *Route) (*APIKey, error) {
	if s.cfg.GatewaySecret != "" {
		got := sha256.Sum256([]byte(r.Header.Get("x-gateway-proxy-secret")))
		want := sha256.Sum256([]byte(s.cfg.GatewaySecret))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			return nil, &Error{Kind: KindForbidden, Detail: "missing or wrong x-gateway-proxy-secret header"}
		}
	}
	plaintext := r.Header.Get("x-api-key")
	if plaintext == "" {
		return nil, &Error{Kind: KindUnauthenticated, Detail: "missing API key: send it in the x-api-key header"}
	}
	if s.cfg.Store == nil {
		return nil, &Error{Kind: KindUnavailable, Detail: "the key store is not configured on this instance"}
	}
	key, err := s.cfg.Store.Authenticate(ctx, plaintext)
	switch {
	case errors.Is(err, ErrRevokedKey):
		return nil, &Error{Kind: KindUnauthenticated, Detail: "the API key has been revoked", Err: err}
	case errors.Is(err, ErrUnknownKey):
		return nil, &Error{Kind: KindUnauthenticated, Detail: "invalid API key", Err: err}
	case err != nil:
		return nil, &Error{Kind: KindUnavailable, Detail: "the key store is unavailable; retry later", Err: err}
	}
	infoFrom(ctx).setKey(key)
	if s.limiter != nil {
		if ok, wait := s.limiter.allow(key.ID); !ok {
			return nil, &Error{Kind: KindRateLimited, RetryAfter: wait,
				Detail: fmt.Sprintf("rate limit of %g requests/s per key exceeded; retry after the time in Retry-After", s.cfg.RateLimit)}
		}
	}
	if err := s.cfg.Store.RecordUsage(ctx, key.ID, rt.OperationID, rt.Billable, s.cfg.Now().UTC()); err != nil {
		return nil, &Error{Kind: KindUnavailable, Detail: "usage metering is unavailable; retry later", Err: err}
	}
	return &key, nil
}

// readInput checks the media type, reads the body under the size limit and
// parses query parameters and the body, collecting every 422 entry.
func (s *Server) readInput(r *http.Request, rt *Route, in *input) error {
	params, fields := rt.params.parse(r.URL.Query())
	in.params = params
	if rt.RequestTypes != nil {
		mt, mtParams, err := s.checkMediaType(r, rt)
		if err != nil {
			return err
		}
		in.mediaType = mt
		if r.ContentLength > s.cfg.MaxBody {
			return &http.MaxBytesError{Limit: s.cfg.MaxBody}
		}
		body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, s.cfg.MaxBody))
		if err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				return err
			}
			return &Error{Kind: KindInvalid, Fields: []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError,
				Msg: "Value error, the request body could not be read"}}, Err: err}
		}
		in.body = body
		switch {
		case len(body) == 0 && !rt.No422: // a No422 route's handler reports it in its 200 answer
			fields = append(fields, wire.ValidationError{Loc: []any{"body"}, Type: wire.TypeMissing, Msg: "Field required"})
		case mt == mediaJSON && rt.RequestBody != nil:
			dst := reflect.New(reflect.TypeOf(rt.RequestBody))
			if errs := decodeJSON(body, dst.Interface()); errs != nil {
				fields = append(fields, errs...)
			} else {
				in.decoded = dst.Interface()
			}
		case mt == mediaMultipart:
			form, errs := s.parseMultipart(body, mtParams["boundary"], rt.RequestBody)
			in.form = form
			fields = append(fields, errs...)
		}
	}
	if len(fields) > 0 {
		if len(fields) > maxFieldErrors {
			fields = fields[:maxFieldErrors]
		}
		return invalid(fields...)
	}
	return nil
}

// checkMediaType matches Content-Type against the route's request types.
// A missing Content-Type is read as the route's first declared type; XML
// routes also take text/xml and any +xml type; PDF routes take
// application/octet-stream.
func (s *Server) checkMediaType(r *http.Request, rt *Route) (string, map[string]string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		if rt.RequestTypes[0] == mediaMultipart {
			return "", nil, &Error{Kind: KindUnsupportedMediaType, Detail: "Content-Type multipart/form-data with a boundary is required"}
		}
		return rt.RequestTypes[0], nil, nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil, &Error{Kind: KindUnsupportedMediaType, Detail: "malformed Content-Type header; expected " + strings.Join(rt.RequestTypes, " or ")}
	}
	for _, want := range rt.RequestTypes {
		switch {
		case mt == want,
			want == mediaXML && (mt == "text/xml" || strings.HasSuffix(mt, "+xml")),
			want == mediaPDF && mt == "application/octet-stream":
			if want == mediaMultipart && params["boundary"] == "" {
				return "", nil, &Error{Kind: KindUnsupportedMediaType, Detail: "multipart/form-data without a boundary"}
			}
			return want, params, nil
		}
	}
	return "", nil, &Error{Kind: KindUnsupportedMediaType, Detail: fmt.Sprintf(
		"unsupported media type %q; this operation accepts %s", mt, strings.Join(rt.RequestTypes, " or "))}
}

// parseMultipart parses a multipart/form-data body and checks that every
// required part of the form type is present.
func (s *Server) parseMultipart(body []byte, boundary string, formType any) (*multipart.Form, []wire.ValidationError) {
	form, err := multipart.NewReader(bytes.NewReader(body), boundary).ReadForm(s.cfg.MaxBody)
	if err != nil {
		return nil, []wire.ValidationError{{Loc: []any{"body"}, Type: wire.TypeValueError,
			Msg: "Value error, malformed multipart/form-data body"}}
	}
	var errs []wire.ValidationError
	if formType == nil {
		return form, nil
	}
	t := reflect.TypeOf(formType)
	for i := range t.NumField() {
		name, required, skip := jsonField(t.Field(i))
		if skip || !required {
			continue
		}
		_, isValue := form.Value[name]
		_, isFile := form.File[name]
		if !isValue && !isFile {
			errs = append(errs, wire.ValidationError{Loc: []any{"body", name}, Type: wire.TypeMissing, Msg: "Field required"})
		}
	}
	for name := range form.Value {
		if !hasJSONField(t, name) {
			errs = append(errs, wire.ValidationError{Loc: []any{"body", name}, Type: wire.TypeExtraForbidden, Msg: "Extra inputs are not permitted"})
		}
	}
	for name := range form.File {
		if !hasJSONField(t, name) {
			errs = append(errs, wire.ValidationError{Loc: []any{"body", name}, Type: wire.TypeExtraForbidden, Msg: "Extra inputs are not permitted"})
		}
	}
	slices.SortFunc(errs, func(a, b wire.ValidationError) int { return strings.Compare(fmt.Sprint(a.Loc), fmt.Sprint(b.Loc)) })
	return form, errs
}

func hasJSONField(t reflect.Type, name string) bool {
	for i := range t.NumField() {
		if n, _, skip := jsonField(t.Field(i)); !skip && n == name {
			return true
		}
	}
	return false
}
