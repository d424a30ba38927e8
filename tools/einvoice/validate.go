package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// maxFileSize bounds one document read by the CLI (the API's default body limit).
const maxFileSize = 20 << 20

// fileResult is one JSON line of `einvoice validate --format json`.
type fileResult struct {
	File   string                 `json:"file"`
	Report *wire.Report           `json:"report,omitempty"`
	Error  string                 `json:"error,omitempty"`
	Detail []wire.ValidationError `json:"detail,omitempty"`
}

// cmdValidate validates files and directories (recursively, *.xml) with the
// same ops.Service as the API. Exit 0: all valid; 1: any invalid; 2: usage
// error or any file that could not be validated.
func cmdValidate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) error {
	f := newFlags("validate", "einvoice validate --profile P [--syntax ubl|cii] [--format json|text|svrl] [--jobs N] FILE|DIR...", getenv)
	profile := f.String("profile", "", "", "validation profile (default: peppol for UBL, en16931 for CII)")
	syntax := f.String("syntax", "", "", "ubl or cii (default: detected from the root element)")
	version := f.String("version", "", "", "rule-set version (default: newest loaded)")
	format := f.String("format", "", "text", "json (one JSON line per file), text or svrl")
	jobs := f.Int("jobs", "", runtime.NumCPU(), "files validated in parallel")
	shared := f.String("shared", "EINVOICE_SHARED", "../shared", "directory of the official rule sets and schemas")
	pos, err := f.parse(args, stdout)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef("validate: no FILE or DIR given")
	case *syntax != "" && *syntax != ops.SyntaxUBL && *syntax != ops.SyntaxCII:
		return usagef("validate: --syntax %q: want ubl or cii", *syntax)
	case *format != "json" && *format != "text" && *format != "svrl":
		return usagef("validate: --format %q: want json, text or svrl", *format)
	case *jobs < 1:
		return usagef("validate: --jobs must be at least 1")
	}
	files, err := collectFiles(pos)
	if err != nil {
		return usagef("validate: %v", err)
	}
	var opts []engineval.Option
	if len(files) == 1 {
		// One document: its schema compiled for it alone costs a third of
		// the whole one, which otherwise is the longest task of the run.
		opts = append(opts, engineval.SchemaPerDocument())
		defer oneShotGC()()
	}
	svc, err := newService(*shared, opts...)
	if err != nil {
		// Nothing can be validated: an error (2), not an invalid document (1).
		fmt.Fprintln(stderr, "einvoice: validate: "+err.Error())
		return &exitError{code: exitUsage}
	}
	results := make([]fileResult, len(files))
	prog := newProgress(stderr, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, *jobs)
	for i, file := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = validateFile(ctx, svc, file, *syntax, *profile, *version)
			prog.fileDone()
		}()
	}
	wg.Wait()
	prog.finish()
	anyInvalid, anyError := false, false
	for _, r := range results {
		if r.Report == nil {
			anyError = true
		} else if !r.Report.Valid {
			anyInvalid = true
		}
		if err := writeResult(stdout, stderr, *format, r); err != nil {
			return fmt.Errorf("validate: write: %w", err)
		}
	}
	switch {
	case anyError:
		return &exitError{code: exitUsage}
	case anyInvalid:
		return &exitError{code: exitFailure}
	}
	return nil
}

// collectFiles expands directories into their *.xml files (sorted).
func collectFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file or directory", a)
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".xml") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

func validateFile(ctx context.Context, svc *ops.Service, file, syntax, profile, version string) fileResult {
	res := fileResult{File: file}
	body, err := readLimited(file)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	if syntax == "" {
		if syntax, err = ops.DetectSyntax(body); err != nil {
			res.Error = "cannot tell UBL from CII (use --syntax): " + err.Error()
			return res
		}
	}
	// body was read for this file alone: the parse keeps it.
	rep, err := svc.Validate(ctx, ops.ValidateRequest{Syntax: syntax, Profile: profile, Version: version, Body: body, Owned: true})
	var re *ops.RequestError
	switch {
	case errors.As(err, &re):
		res.Error, res.Detail = "invalid request", re.Fields
	case err != nil:
		res.Error = err.Error()
	default:
		res.Report = rep
	}
	return res
}

func readLimited(file string) ([]byte, error) {
	fh, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return b, nil
}

func writeResult(stdout, stderr io.Writer, format string, r fileResult) error {
	switch format {
	case "json":
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	case "svrl":
		if r.Report == nil {
			_, err := fmt.Fprintf(stderr, "%s: %s\n", r.File, errorText(r))
			return err
		}
		return ops.WriteSVRL(stdout, r.Report)
	}
	if r.Report == nil {
		_, err := fmt.Fprintf(stdout, "%s: ERROR %s\n", r.File, errorText(r))
		return err
	}
	verdict := "VALID"
	if !r.Report.Valid {
		verdict = "INVALID"
	}
	if !r.Report.Complete {
		verdict += " (incomplete)"
	}
	if _, err := fmt.Fprintf(stdout, "%s: %s profile=%s fatal=%d warning=%d\n", r.File, verdict,
		r.Report.Profile, r.Report.Counts.Fatal, r.Report.Counts.Warning); err != nil {
		return err
	}
	for _, fd := range r.Report.Findings {
		loc := fd.Location
		if fd.Line > 0 {
			loc = fmt.Sprintf("line %d %s", fd.Line, loc)
		}
		if _, err := fmt.Fprintf(stdout, "  %-7s %s %s: %s\n", fd.Flag, fd.RuleID, loc, fd.Message); err != nil {
			return err
		}
	}
	return nil
}

func errorText(r fileResult) string {
	if len(r.Detail) == 0 {
		return r.Error
	}
	parts := make([]string, len(r.Detail))
	for i, d := range r.Detail {
		parts[i] = d.Msg
		if l, ok := d.Ctx["line"]; ok {
			parts[i] = fmt.Sprintf("line %v: %s", l, d.Msg)
		}
	}
	return strings.Join(parts, "; ")
}

// oneShotMemoryLimit is the heap at which a one-document run collects
// garbage (oneShotGC): far above what validating the largest document the
// CLI reads (maxFileSize) keeps live.
const oneShotMemoryLimit = 1 << 30

// oneShotGC turns the garbage collector off for a one-document run, with
// oneShotMemoryLimit as the backstop, and returns what restores the
// previous settings. Such a run compiles a rule set and exits: its garbage
// is never worth collecting, and each collection also scans the rule
// tables' static data, so at the default GOGC the collector took about a
// quarter of the run's instructions (docs/PERFORMANCE.md, "Cold CLI").
// GOGC or GOMEMLIMIT in the environment leave the settings alone.
func oneShotGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pct := debug.SetGCPercent(-1)
	lim := debug.SetMemoryLimit(oneShotMemoryLimit)
	return func() {
		debug.SetMemoryLimit(lim)
		debug.SetGCPercent(pct)
	}
}
