package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is injected at build time: go build -ldflags "-X main.version=1.2.3".
var version = "dev"

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// usageError is a command-line mistake: exit 2 with its one-line message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// exitError carries an explicit exit code (validate: 1 for invalid documents).
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// env looks up environment variables (os.Getenv in main, a map in tests).
type env func(string) string

const topUsage = `usage: einvoice <command> [flags]

commands:
  serve      run the HTTP API (einvoice serve --help)
  keys       create, list and revoke API keys (einvoice keys --help)
  validate   validate invoice files (einvoice validate --help)
  generate   write UBL, CII, FatturaPA, Facturae, KSeF or Order-X from JSON (einvoice generate --help)
  convert    convert between UBL, CII and XRechnung (einvoice convert --help)
  repair     repair dates and totals of a UBL or CII invoice (einvoice repair --help)
  facturx    write a Factur-X PDF/A-3b from JSON, UBL or CII (einvoice facturx --help)
  render     render an invoice as PDF or HTML (einvoice render --help)
  pdfa       PDF/A conformity checks by veraPDF, PDF/A-3b conversion (einvoice pdfa --help)
  embed      upgrade your own PDF to Factur-X: PDF/A-3b with factur-x.xml (einvoice embed --help)
  extract    the invoice XML, attachments or consistency of a PDF (einvoice extract --help)
  version    print the build version (also --version)
`

// run executes one command line and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) int {
	err := dispatch(ctx, args, stdout, stderr, getenv)
	var ue *usageError
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "einvoice: "+ue.msg)
		return exitUsage
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "einvoice: "+err.Error())
		return exitFailure
	}
}

// errHelp reports that help was printed as asked.
var errHelp = errors.New("help shown")

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	if len(args) == 0 {
		return usagef("missing command; run einvoice --help")
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, "einvoice "+version)
		return nil
	case "--help", "-help", "-h", "help":
		fmt.Fprint(stdout, topUsage)
		return errHelp
	case "serve":
		return cmdServe(ctx, args[1:], stdout, stderr, getenv)
	case "keys":
		return cmdKeys(ctx, args[1:], stdout, getenv)
	case "validate":
		return cmdValidate(ctx, args[1:], stdout, stderr, getenv)
	case "generate":
		return cmdGenerate(ctx, args[1:], stdout, stderr, getenv)
	case "convert":
		return cmdConvert(ctx, args[1:], stdout, stderr, getenv)
	case "repair":
		return cmdRepair(ctx, args[1:], stdout, stderr, getenv)
	case "facturx":
		return cmdFacturX(ctx, args[1:], stdout, stderr, getenv)
	case "render":
		return cmdRender(ctx, args[1:], stdout, stderr, getenv)
	case "pdfa":
		return cmdPDFA(ctx, args[1:], stdout, stderr, getenv)
	case "embed":
		return cmdEmbed(ctx, args[1:], stdout, stderr, getenv)
	case "extract":
		return cmdExtract(ctx, args[1:], stdout, stderr, getenv)
	}
	return usagef("unknown command %q; run einvoice --help", args[0])
}
