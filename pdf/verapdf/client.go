package verapdf

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultJar is where `make verapdf` puts the worker, relative to the
// repository root.
const DefaultJar = "tools/verapdf-worker/target/verapdf-worker.jar"

// Defaults of Options.
const (
	DefaultWorkers      = 1
	DefaultTimeout      = 60 * time.Second
	DefaultStartTimeout = 60 * time.Second
	// killGrace is how long past Options.Timeout (at most Timeout again) the
	// client waits for the worker's own timeout answer before it kills the process.
	killGrace = 5 * time.Second
	// startBackoff is how long a failed start is remembered: calls within it
	// fail at once with the same reason instead of each paying for a JVM start.
	startBackoff = 2 * time.Second
)

// DefaultJVMArgs keep a worker small: serial GC, a bounded heap (a PDF that
// needs more is answered as a resource DocumentError, not a crash), and the
// C1 compiler only: measured on the 2-core machine (docs/PERFORMANCE.md),
// warming costs half the CPU and validations stay cheaper than with C2 even
// after 150 files, because C2's own compilation keeps eating the CPU; over
// ~500 files (the render coverage test) both cost the same. Everything the
// JVM itself prints (warnings such as "CodeCache is full" and the code cache
// summary after them) goes to stderr: on stdout, its default, it would break
// the protocol.
var DefaultJVMArgs = []string{"-Xmx768m", "-Xss8m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
	"-XX:+DisplayVMOutputToStderr", "-Xlog:disable", "-Xlog:all=warning:stderr", "-Djava.awt.headless=true"}

// Flavours are the PDF/A flavours a caller may ask for; "auto" checks the
// flavour the file declares (PDF/A-3b when it declares none).
var Flavours = []string{"auto", "1a", "1b", "2a", "2b", "2u", "3a", "3b", "3u", "4", "4e", "4f"}

// Options configure a Client. The zero value of each field means its default.
type Options struct {
	// Jar is the worker jar (default DefaultJar, relative to the working directory).
	Jar string
	// Java is the java executable (default "java" from PATH).
	Java string
	// Workers bounds how many files are validated at once, one JVM each
	// (default DefaultWorkers). A further JVM starts only when calls overlap:
	// a free running worker is always preferred to starting one.
	Workers int
	// Timeout bounds the validation of one file (default DefaultTimeout).
	Timeout time.Duration
	// StartTimeout bounds a worker's start-up (default DefaultStartTimeout).
	StartTimeout time.Duration
	// JVMArgs replace DefaultJVMArgs when set.
	JVMArgs []string
	// TempDir holds the files Validate hands to the worker (default os.TempDir()).
	TempDir string
	// Stderr receives the workers' diagnostics (default: kept in memory, the
	// tail is quoted in errors).
	Stderr io.Writer
}

// ErrUnavailable is matched by every *UnavailableError.
var ErrUnavailable = errors.New("veraPDF validator unavailable")

// ErrUnknownFlavour reports a flavour outside Flavours.
var ErrUnknownFlavour = errors.New("unknown PDF/A flavour")

// UnavailableError reports that no verdict could be obtained because the
// validator itself is missing or failed. Callers answer 503.
type UnavailableError struct {
	Reason string
	Err    error
}

func (e *UnavailableError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("veraPDF validator unavailable: %s: %v", e.Reason, e.Err)
	}
	return "veraPDF validator unavailable: " + e.Reason
}

// Is makes errors.Is(err, ErrUnavailable) true.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

func (e *UnavailableError) Unwrap() error { return e.Err }

// Kinds of DocumentError.
const (
	KindParse     = "parse"     // veraPDF cannot parse the file as PDF
	KindEncrypted = "encrypted" // the file is encrypted
	KindTimeout   = "timeout"   // validation did not finish within Options.Timeout
	KindResource  = "resource"  // the file needs more memory than a worker has
)

// DocumentError reports that veraPDF could not give a verdict on this file
// because of the file: it cannot be parsed, is encrypted, or is too costly.
// Callers answer 422 with Message.
type DocumentError struct {
	Kind    string
	Message string
}

func (e *DocumentError) Error() string {
	return fmt.Sprintf("veraPDF cannot validate this file (%s): %s", e.Kind, e.Message)
}

// Result is veraPDF's verdict on one file.
type Result struct {
	Compliant bool `json:"compliant"`
	// Flavour is the flavour the file declares in its XMP ("" when none).
	Flavour string `json:"flavour"`
	// CheckedFlavour is the flavour the file was checked against.
	CheckedFlavour string       `json:"checked_flavour"`
	FailedRules    []FailedRule `json:"failed_rules"`
	Validator      Validator    `json:"validator"`
	// Duration is the time the call took, queueing included.
	Duration time.Duration `json:"-"`
}

// FailedRule is one veraPDF rule with at least one failed check.
type FailedRule struct {
	Specification string `json:"specification"` // e.g. "ISO 19005-3:2012"
	Clause        string `json:"clause"`        // e.g. "6.6.2.1"
	TestNumber    int    `json:"test_number"`
	Description   string `json:"description"`
	FailedChecks  int    `json:"failed_checks"`
}

// String renders a rule as "ISO 19005-3:2012 6.6.2.1-1 (2 checks): description".
func (r FailedRule) String() string {
	return fmt.Sprintf("%s %s-%d (%d checks): %s", r.Specification, r.Clause, r.TestNumber, r.FailedChecks, r.Description)
}

// Validator names the validator and its version.
type Validator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Client validates PDFs with a pool of supervised workers. It is safe for
// concurrent use; the zero value is not usable, call New.
type Client struct {
	opts  Options
	slots chan *slot
	ids   atomic.Int64

	mu        sync.Mutex
	procs     map[*proc]struct{}
	closed    bool
	lastErr   error     // last start failure, nil after a successful start
	lastErrAt time.Time // when lastErr happened
	version   string    // veraPDF version reported by the last worker started
	restarts  int       // workers replaced after a crash, hang or failed health check

	// afterSend, when set (tests), runs after a request was written to a worker.
	afterSend func(p *proc)
}

// slot is the right to run one worker; its holder owns p.
type slot struct {
	p *proc
}

// New returns a client; no process is started until the first request (or Start).
func New(opts Options) *Client {
	if opts.Jar == "" {
		opts.Jar = DefaultJar
	}
	if opts.Java == "" {
		opts.Java = "java"
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.JVMArgs == nil {
		opts.JVMArgs = DefaultJVMArgs
	}
	c := &Client{opts: opts, slots: make(chan *slot, opts.Workers), procs: map[*proc]struct{}{}}
	for range opts.Workers {
		c.slots <- &slot{}
	}
	return c
}

// Options returns the effective options (defaults filled in).
func (c *Client) Options() Options { return c.opts }

// CheckFlavour returns an error wrapping ErrUnknownFlavour unless f is one of Flavours.
func CheckFlavour(f string) error {
	if !slices.Contains(Flavours, f) {
		return fmt.Errorf("%w %q (expected one of %s)", ErrUnknownFlavour, f, strings.Join(Flavours, ", "))
	}
	return nil
}

// Start starts one worker now and warms it (the worker validates a small
// PDF of its own: the first validation of a fresh JVM costs seconds of CPU),
// so that the first request does not pay for either. It fails only when no
// worker can run (or ctx ends); warming itself is best effort.
func (c *Client) Start(ctx context.Context) error {
	s, err := c.acquire(ctx)
	if err != nil {
		return err
	}
	p, err := c.ensure(s)
	if err != nil {
		c.release(s)
		return err
	}
	_, err = c.roundTrip(ctx, s, p, request{Op: "warm"})
	if errors.Is(err, ErrUnavailable) || ctx.Err() != nil {
		return err
	}
	return nil
}

// Validate checks pdf against flavour (one of Flavours; "" = "auto").
func (c *Client) Validate(ctx context.Context, pdf []byte, flavour string) (*Result, error) {
	start := time.Now()
	if err := CheckFlavour(orAuto(flavour)); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(c.opts.TempDir, "verapdf-*.pdf")
	if err != nil {
		return nil, &UnavailableError{Reason: "cannot write the temporary file for the worker", Err: err}
	}
	name := f.Name()
	defer func() { _ = os.Remove(name) }()
	_, err = f.Write(pdf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, &UnavailableError{Reason: "cannot write the temporary file for the worker", Err: err}
	}
	return c.validatePath(ctx, start, name, orAuto(flavour))
}

// ValidateFile checks the PDF at path (made absolute) against flavour.
func (c *Client) ValidateFile(ctx context.Context, path, flavour string) (*Result, error) {
	start := time.Now()
	if err := CheckFlavour(orAuto(flavour)); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("verapdf: %w", err)
	}
	return c.validatePath(ctx, start, abs, orAuto(flavour))
}

func orAuto(flavour string) string {
	if flavour == "" {
		return "auto"
	}
	return flavour
}

// request and response are the worker's protocol (tools/verapdf-worker).
type request struct {
	ID      int64  `json:"id"`
	Op      string `json:"op"`
	Path    string `json:"path,omitempty"`
	Flavour string `json:"flavour,omitempty"`
}

type response struct {
	ID    *int64 `json:"id"`
	Ready bool   `json:"ready"`
	OK    bool   `json:"ok"`
	// Restarting: the worker exits after this answer (a validation it could
	// not stop, or out of memory); the client replaces it at once.
	Restarting bool `json:"restarting"`
	Error      *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
	Result
}

// validatePath asks a worker for the verdict on path; Duration counts from start.
func (c *Client) validatePath(ctx context.Context, start time.Time, path, flavour string) (*Result, error) {
	resp, err := c.call(ctx, request{Op: "validate", Path: path, Flavour: flavour})
	if err != nil {
		return nil, err
	}
	r, err := verdict(resp)
	if err != nil {
		return nil, err
	}
	r.Duration = time.Since(start)
	return r, nil
}

// verdict turns the answer to a validate request into the caller's result
// or error: a *DocumentError for a PDF veraPDF could not check, an
// *UnavailableError when the worker failed or its verdict contradicts itself
// (no flavour or validator version, "compliant" with failed rules, a failed
// rule without a failed check): no verdict is passed on that the worker did
// not clearly give.
func verdict(resp *response) (*Result, error) {
	if e := resp.Error; e != nil {
		switch e.Kind {
		case KindParse, KindEncrypted, KindTimeout, KindResource:
			return nil, &DocumentError{Kind: e.Kind, Message: e.Message}
		default: // io, bad_request, internal: our side is at fault
			return nil, &UnavailableError{Reason: "the worker failed (" + e.Kind + ")", Err: errors.New(e.Message)}
		}
	}
	r := resp.Result
	bad := ""
	switch {
	case r.CheckedFlavour == "" || r.Validator.Version == "":
		bad = "no checked flavour or validator version"
	case r.Compliant && len(r.FailedRules) > 0:
		bad = "compliant with failed rules"
	}
	for _, fr := range r.FailedRules {
		if fr.FailedChecks < 1 {
			bad = "a failed rule without a failed check"
		}
	}
	if bad != "" {
		return nil, &UnavailableError{Reason: "the worker's verdict contradicts itself", Err: errors.New(bad)}
	}
	if r.FailedRules == nil {
		r.FailedRules = []FailedRule{}
	}
	return &r, nil
}

// call sends one request to a free worker (starting one if needed) and
// waits for its answer, the per-file time limit or ctx.
func (c *Client) call(ctx context.Context, req request) (*response, error) {
	s, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	p, err := c.ensure(s)
	if err != nil {
		c.release(s)
		return nil, err
	}
	return c.roundTrip(ctx, s, p, req)
}

// roundTrip sends req to p, the worker of the slot s the caller holds, and
// waits for the answer; it releases s (at once, or when the worker is done
// with a request whose caller gave up).
func (c *Client) roundTrip(ctx context.Context, s *slot, p *proc, req request) (*response, error) {
	req.ID = c.ids.Add(1)
	line, err := json.Marshal(req)
	if err != nil {
		c.release(s)
		return nil, fmt.Errorf("verapdf: encoding request: %w", err)
	}
	timeout := c.opts.Timeout + min(killGrace, c.opts.Timeout)
	if req.Op == "ping" {
		timeout = pingTimeout
	}
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		c.drop(s, p, "write failed")
		c.release(s)
		return nil, &UnavailableError{Reason: "the worker stopped accepting requests", Err: p.exitErr(err)}
	}
	if c.afterSend != nil {
		c.afterSend(p)
	}
	timer := time.NewTimer(timeout)
	select {
	case out, ok := <-p.lines:
		timer.Stop()
		defer c.release(s)
		return c.answer(s, p, req.ID, out, ok)
	case <-timer.C:
		c.drop(s, p, "timeout")
		c.release(s)
		if req.Op == "ping" {
			return nil, &UnavailableError{Reason: fmt.Sprintf("the worker did not answer a health check within %s; it was restarted", timeout)}
		}
		return nil, &DocumentError{Kind: KindTimeout, Message: fmt.Sprintf(
			"validation did not finish within %s; the worker was restarted", c.opts.Timeout)}
	case <-ctx.Done():
		// The worker is still busy with this file: keep the slot until it
		// answers (or runs out of time), then hand it on.
		go func() {
			defer c.release(s)
			select {
			case out, ok := <-p.lines:
				timer.Stop()
				_, _ = c.answer(s, p, req.ID, out, ok)
			case <-timer.C:
				c.drop(s, p, "timeout")
			}
		}()
		return nil, fmt.Errorf("verapdf: %w", ctx.Err())
	}
}

// answer decodes the worker's line for request id. ok=false means the
// worker's stdout closed: it died.
func (c *Client) answer(s *slot, p *proc, id int64, out []byte, ok bool) (*response, error) {
	if !ok {
		c.drop(s, p, "crash")
		return nil, &UnavailableError{Reason: "the worker exited during the request", Err: p.exitErr(nil)}
	}
	resp, err := decodeAnswer(out, id)
	if err != nil {
		c.drop(s, p, "protocol")
		return nil, err
	}
	if resp.Restarting {
		c.drop(s, p, "restart")
	}
	return resp, nil
}

// decodeAnswer reads the worker's answer line to request id; an answer that
// is not JSON or answers another request is an *UnavailableError.
func decodeAnswer(out []byte, id int64) (*response, error) {
	var resp response
	if err := json.Unmarshal(out, &resp); err != nil || resp.ID == nil || *resp.ID != id {
		if err == nil {
			err = fmt.Errorf("answer %.200q does not match request %d", out, id)
		}
		return nil, &UnavailableError{Reason: "the worker's answer is out of protocol", Err: err}
	}
	return &resp, nil
}

func (c *Client) acquire(ctx context.Context) (*slot, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, &UnavailableError{Reason: "the client is closed"}
	}
	select {
	case s := <-c.slots:
		return c.preferRunning(s), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("verapdf: waiting for a free worker: %w", ctx.Err())
	}
}

// preferRunning trades s, a free slot without a running worker, for a free
// slot with one when there is such a slot, so that calls one after the other
// keep using one warm JVM and a further worker starts only when calls
// overlap: a fresh JVM spends seconds of CPU before its validations are
// cheap (docs/PERFORMANCE.md, issue 8), which Workers > 1 would otherwise
// pay once per worker even for a sequential caller.
func (c *Client) preferRunning(s *slot) *slot {
	if s.p != nil && !s.p.exited() {
		return s
	}
	for range cap(c.slots) - 1 {
		select {
		case o := <-c.slots:
			if o.p != nil && !o.p.exited() {
				c.release(s)
				return o
			}
			c.release(o)
		default:
			return s
		}
	}
	return s
}

func (c *Client) release(s *slot) { c.slots <- s }

// ensure returns the slot's running worker, starting one when there is none
// or the previous one exited.
func (c *Client) ensure(s *slot) (*proc, error) {
	if s.p != nil && !s.p.exited() {
		return s.p, nil
	}
	if s.p != nil {
		c.drop(s, s.p, "crash")
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, &UnavailableError{Reason: "the client is closed"}
	}
	if c.lastErr != nil && time.Since(c.lastErrAt) < startBackoff {
		err := c.lastErr
		c.mu.Unlock()
		return nil, err
	}
	c.mu.Unlock()
	p, err := c.startProc()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.lastErr, c.lastErrAt = err, time.Now()
		return nil, err
	}
	if c.closed {
		p.kill()
		return nil, &UnavailableError{Reason: "the client is closed"}
	}
	c.lastErr = nil
	c.version = p.version
	c.procs[p] = struct{}{}
	s.p = p
	return p, nil
}

// drop kills the slot's worker and forgets it; the next call starts a new one.
func (c *Client) drop(s *slot, p *proc, why string) {
	p.kill()
	c.mu.Lock()
	if _, ok := c.procs[p]; ok {
		delete(c.procs, p)
		if why != "close" {
			c.restarts++
		}
	}
	c.mu.Unlock()
	if s.p == p {
		s.p = nil
	}
}

// Close stops every worker; later calls fail with an *UnavailableError.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	procs := make([]*proc, 0, len(c.procs))
	for p := range c.procs {
		procs = append(procs, p)
	}
	clear(c.procs)
	c.mu.Unlock()
	for _, p := range procs {
		p.stop()
	}
	return nil
}
