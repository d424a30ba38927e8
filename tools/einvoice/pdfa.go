package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/pdf/verapdf"
)

const pdfaUsage = `usage: einvoice pdfa <command> [flags]

commands:
  validate   PDF/A conformity of PDF files by veraPDF (einvoice pdfa validate --help)
  convert    convert a PDF to PDF/A-3b with attachments (einvoice pdfa convert --help)
`

// cmdPDFA dispatches `einvoice pdfa <command>`.
func cmdPDFA(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	if len(args) == 0 {
		return usagef("pdfa: missing command (validate, convert); run einvoice pdfa --help")
	}
	switch args[0] {
	case "--help", "-help", "-h", "help":
		fmt.Fprint(stdout, pdfaUsage)
		return errHelp
	case "validate":
		return cmdPDFAValidate(ctx, args[1:], stdout, stderr, getenv)
	case "convert":
		return cmdPDFAConvert(ctx, args[1:], stdout, stderr, getenv)
	}
	return usagef("pdfa: unknown command %q; run einvoice pdfa --help", args[0])
}

// veraPDFFlags are the veraPDF worker settings of `serve` and `pdfa validate`.
type veraPDFFlags struct {
	jar, java *string
	workers   *int
	timeout   *time.Duration
}

// addVeraPDFFlags declares --verapdf-jar, --java, --verapdf-timeout and
// (withWorkers) --verapdf-workers.
func addVeraPDFFlags(f *cmdFlags, withWorkers bool) *veraPDFFlags {
	v := &veraPDFFlags{
		jar: f.String("verapdf-jar", "EINVOICE_VERAPDF_JAR", "", "the veraPDF worker `jar` built by make verapdf (default: "+
			verapdf.DefaultJar+" beside the binary's bin/ directory, else under the working directory)"),
		java:    f.String("java", "EINVOICE_JAVA", "java", "the Java 17+ executable that runs the veraPDF worker"),
		timeout: f.Duration("verapdf-timeout", "EINVOICE_VERAPDF_TIMEOUT", verapdf.DefaultTimeout, "veraPDF time limit per file (the worker is restarted beyond; serve: at most --request-timeout)"),
	}
	if withWorkers {
		v.workers = f.Int("verapdf-workers", "EINVOICE_VERAPDF_WORKERS", 2, "veraPDF workers (JVMs) = PDF/A files checked at once")
	}
	return v
}

// options checks the values and returns the client options.
func (v *veraPDFFlags) options(cmd string) (verapdf.Options, error) {
	o := verapdf.Options{Jar: *v.jar, Java: *v.java, Timeout: *v.timeout, Workers: 1}
	if v.workers != nil {
		if *v.workers < 1 {
			return o, usagef("%s: --verapdf-workers must be at least 1", cmd)
		}
		o.Workers = *v.workers
	}
	if o.Timeout <= 0 {
		return o, usagef("%s: --verapdf-timeout must be positive", cmd)
	}
	if o.Jar == "" {
		o.Jar = defaultVeraPDFJar()
	}
	return o, nil
}

// defaultVeraPDFJar is the jar of the repository the binary was built in
// (bin/einvoice -> ../tools/verapdf-worker/target/verapdf-worker.jar), else
// the same path under the working directory (`make run` runs from the root).
func defaultVeraPDFJar() string {
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			j := filepath.Join(filepath.Dir(exe), "..", filepath.FromSlash(verapdf.DefaultJar))
			if _, err := os.Stat(j); err == nil {
				return filepath.Clean(j)
			}
		}
	}
	return filepath.FromSlash(verapdf.DefaultJar)
}

// pdfaLine is one output line of `pdfa validate`.
type pdfaLine struct {
	File string `json:"file"`
	*wire.PDFAValidation
	Error string `json:"error,omitempty"`
}

// cmdPDFAValidate checks each FILE with ops.PDFAValidate, the function
// behind POST /v1/pdfa/validate, and writes one JSON line per file. Exit 0:
// every file compliant; 1: some file not compliant; 2: some file could not
// be checked (unreadable, not a PDF, veraPDF cannot parse it, no veraPDF) or usage.
func cmdPDFAValidate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("pdfa validate", "einvoice pdfa validate [--flavour auto|1a|...|4f] FILE.pdf...", getenv)
	flavour := f.String("flavour", "", "auto", "PDF/A flavour to check ("+strings.Join(verapdf.Flavours, ", ")+"); auto = the one the file declares, 3b when none")
	vf := addVeraPDFFlags(f, false)
	pos, err := f.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("pdfa validate: want at least one FILE.pdf")
	}
	if err := verapdf.CheckFlavour(*flavour); err != nil {
		return usagef("pdfa validate: --flavour: %v", err)
	}
	opts, err := vf.options("pdfa validate")
	if err != nil {
		return err
	}
	client := verapdf.New(opts)
	defer func() { _ = client.Close() }()
	svc := &ops.Service{VeraPDF: client}
	enc := json.NewEncoder(stdout)
	code := exitOK
	for _, file := range pos {
		line := pdfaLine{File: file}
		data, err := readLimited(file)
		if err == nil {
			line.PDFAValidation, err = svc.PDFAValidate(ctx, data, *flavour)
		}
		switch {
		case err != nil:
			line.Error = cliErrorText(err)
			fmt.Fprintf(stderr, "einvoice: %s: %s\n", file, line.Error)
			code = exitUsage
		case !line.Compliant && code == exitOK:
			code = exitFailure
		}
		if err := enc.Encode(line); err != nil {
			return fmt.Errorf("pdfa validate: writing the result: %w", err)
		}
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// cliErrorText is the one-line reason of a failed check: the 422 messages
// of a *ops.RequestError, else the error.
func cliErrorText(err error) string {
	var re *ops.RequestError
	if errors.As(err, &re) && len(re.Fields) > 0 {
		msgs := make([]string, len(re.Fields))
		for i, f := range re.Fields {
			msgs[i] = f.Msg
		}
		return strings.TrimPrefix(strings.Join(msgs, "; "), "Value error, ")
	}
	return err.Error()
}

// superviseVeraPDF starts one worker of the server's client (called after
// the server listens), so the first PDF/A request does not pay for the JVM
// start-up, then health-checks the workers every veraPDFWatch until ctx
// ends, logging when PDF/A verdicts become unavailable and when they are
// back. A failed start is logged (PDF/A operations answer 503 with the
// reason and /health reports it) and retried on the next request.
func superviseVeraPDF(ctx context.Context, c *verapdf.Client, opts verapdf.Options, logger *slog.Logger) {
	start := time.Now()
	if err := c.Start(ctx); err != nil {
		logger.Warn("veraPDF worker not available; PDF/A operations answer 503 until it starts", "jar", opts.Jar, "error", err)
	} else {
		logger.Info("veraPDF worker ready", "jar", opts.Jar, "workers", opts.Workers, "duration_ms", time.Since(start).Milliseconds())
	}
	c.Watch(ctx, veraPDFWatch, func(st verapdf.Status) {
		if st.State == verapdf.StateOK {
			logger.Info("veraPDF available again", "detail", st.Detail, "restarts", st.Restarts)
			return
		}
		logger.Warn("veraPDF unavailable; PDF/A operations answer 503", "detail", st.Detail, "restarts", st.Restarts)
	})
}

// veraPDFWatch is how often serve health-checks the veraPDF workers.
const veraPDFWatch = 30 * time.Second
