package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

type ctxKey struct{}

// reqInfo is the per-request state the middleware chain shares. The handler
// may run on another goroutine than the logger (timeout middleware), so the
// mutable fields are guarded.
type reqInfo struct {
	id  string
	mu  sync.Mutex
	op  string
	key *APIKey
}

func infoFrom(ctx context.Context) *reqInfo {
	if ri, ok := ctx.Value(ctxKey{}).(*reqInfo); ok {
		return ri
	}
	return &reqInfo{id: "-", op: "unknown"}
}

func (ri *reqInfo) setOp(op string) {
	ri.mu.Lock()
	ri.op = op
	ri.mu.Unlock()
}

func (ri *reqInfo) setKey(k APIKey) {
	ri.mu.Lock()
	ri.key = &k
	ri.mu.Unlock()
}

// snapshot returns the operation id and key id (empty when none).
func (ri *reqInfo) snapshot() (op, keyID string) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.key != nil {
		keyID = ri.key.ID
	}
	return ri.op, keyID
}

// RequestID returns the request id of ctx ("-" outside a request).
func RequestID(ctx context.Context) string { return infoFrom(ctx).id }

// saneRequestID accepts caller ids of 1..128 characters from [A-Za-z0-9._:-].
func saneRequestID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// withRequestID accepts a sane X-Request-Id or generates one, echoes it in
// the response and stores it in the request context.
// securityHeaders are set on every response. The policy lets the
// self-contained HTML pages (/docs, render/html) use their inline styles and
// data: images and nothing else: no scripts, no fetches, no framing.
var securityHeaders = [...][2]string{
	{"X-Content-Type-Options", "nosniff"},
	{"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
}

// withSecurityHeaders sets securityHeaders on every response.
func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, kv := range securityHeaders {
			h.Set(kv[0], kv[1])
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !saneRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		ri := &reqInfo{id: id, op: "unknown"}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, ri)))
	})
}

// statusRecorder captures the status code of a response.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (sr *statusRecorder) WriteHeader(code int) {
	if sr.status == 0 {
		sr.status = code
	}
	sr.ResponseWriter.WriteHeader(code)
}

func (sr *statusRecorder) Write(b []byte) (int, error) {
	if sr.status == 0 {
		sr.status = http.StatusOK
	}
	n, err := sr.ResponseWriter.Write(b)
	sr.bytes += int64(n)
	return n, err
}

// withObservation logs one JSON line per request and records metrics.
func (s *Server) withObservation(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sr := &statusRecorder{ResponseWriter: w}
		s.metrics.inFlight.Inc()
		defer s.metrics.inFlight.Dec()
		next.ServeHTTP(sr, r)
		if sr.status == 0 {
			sr.status = http.StatusOK
		}
		d := time.Since(start)
		ri := infoFrom(r.Context())
		op, keyID := ri.snapshot()
		s.metrics.observe(op, sr.status, d)
		attrs := []any{"request_id", ri.id, "op", op, "method", r.Method, "path", r.URL.Path,
			"status", sr.status, "bytes", sr.bytes, "duration_ms", float64(d.Microseconds()) / 1000}
		if keyID != "" {
			attrs = append(attrs, "key_id", keyID)
		}
		s.cfg.Logger.InfoContext(r.Context(), "request", attrs...)
	})
}

// panicValue carries a recovered panic and its stack across goroutines.
type panicValue struct {
	val   any
	stack []byte
}

// withRecover turns a panic into a logged 500 whose body names only the
// request id. http.ErrAbortHandler is re-raised, as net/http expects.
func (s *Server) withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			stack := debug.Stack()
			if pv, ok := p.(panicValue); ok {
				p, stack = pv.val, pv.stack
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			ri := infoFrom(r.Context())
			op, _ := ri.snapshot()
			s.cfg.Logger.ErrorContext(r.Context(), "panic", "request_id", ri.id, "op", op,
				"panic", fmt.Sprint(p), "stack", string(stack))
			s.writeJSON(w, http.StatusInternalServerError, map[string]string{
				"detail": "internal server error (request id " + ri.id + ")"})
		}()
		next.ServeHTTP(w, r)
	})
}

// timeoutWriter buffers a response so that a handler still running when the
// time limit passes cannot write after the 503.
type timeoutWriter struct {
	mu       sync.Mutex
	h        http.Header
	buf      bytes.Buffer
	code     int
	timedOut bool
}

func (tw *timeoutWriter) Header() http.Header { return tw.h }

func (tw *timeoutWriter) Write(p []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return 0, http.ErrHandlerTimeout
	}
	if tw.code == 0 {
		tw.code = http.StatusOK
	}
	return tw.buf.Write(p)
}

func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut || tw.code != 0 {
		return
	}
	tw.code = code
}

// withTimeout gives every request a context deadline of RequestTimeout and
// answers 503 with a JSON detail when the handler has not finished by then.
func (s *Server) withTimeout(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		done := make(chan struct{})
		panicked := make(chan panicValue, 1)
		tw := &timeoutWriter{h: make(http.Header)}
		go func() {
			defer func() {
				if p := recover(); p != nil {
					pv := panicValue{val: p, stack: debug.Stack()}
					tw.mu.Lock()
					late := tw.timedOut
					tw.mu.Unlock()
					if late { // the 503 is already sent; nobody re-raises this panic
						s.cfg.Logger.Error("panic after time-out", "request_id", RequestID(r.Context()),
							"panic", fmt.Sprint(p), "stack", string(pv.stack))
						return
					}
					panicked <- pv
				}
			}()
			next.ServeHTTP(tw, r)
			close(done)
		}()
		select {
		case p := <-panicked:
			panic(p)
		case <-done:
			tw.mu.Lock()
			defer tw.mu.Unlock()
			dst := w.Header()
			for k, vv := range tw.h {
				dst[k] = vv
			}
			if tw.code == 0 {
				tw.code = http.StatusOK
			}
			w.Header().Set("Content-Length", strconv.Itoa(tw.buf.Len()))
			w.WriteHeader(tw.code)
			_, _ = w.Write(tw.buf.Bytes())
		case <-ctx.Done():
			tw.mu.Lock()
			tw.timedOut = true
			tw.mu.Unlock()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				s.writeError(w, r, timeoutError(s.cfg.RequestTimeout, ctx.Err()))
			}
		}
	})
}
