package oracle

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Finding is one fired rule as the reference reports it (the shape of the
// expected results). Kind is "assert", "report" or "stage-error"; for a
// stage-error ID is the XPath error code and Text Saxon's message.
type Finding struct {
	ID    string `json:"id"`
	Flag  string `json:"flag"`
	Kind  string `json:"kind"`
	Loc   string `json:"loc"`
	Text  string `json:"text"`
	Stage string `json:"stage"`
}

// Result is the reference's answer for one document.
type Result struct {
	File  string    `json:"file"`
	Fired []Finding `json:"fired"`
	// Error is set when the document could not be read or parsed (no stage ran).
	Error string `json:"error,omitempty"`
	// MS is the Schematron-only time in milliseconds (all stages, parse excluded).
	MS float64 `json:"ms"`
}

// Options configure Start.
type Options struct {
	// Dir is the Maven project directory (the one holding pom.xml). Default:
	// the directory of this source file, found through runtime.Caller.
	Dir string
	// Sch are the Schematron files, one stage each, applied in order.
	Sch []string
	// Java and Mvn are the executables (default "java" and "mvn" from PATH).
	Java, Mvn string
	// JVMArgs are extra JVM options (e.g. "-Xmx1g").
	JVMArgs []string
	// Stderr receives the Java process's and Maven's diagnostics (default: discarded).
	Stderr io.Writer
	// StartTimeout bounds the build plus Schematron compilation (default 20 minutes:
	// SchXslt's expand step on the modular EN 16931 files takes over a minute of CPU).
	StartTimeout time.Duration
	// CacheDir keeps the generated validation stylesheets between runs (default
	// Dir/target/cache; "-" disables the cache). Build output, git-ignored.
	CacheDir string
}

// ErrUnavailable reports that Java or Maven is not installed.
var ErrUnavailable = errors.New("oracle: java or mvn not found in PATH")

// Available reports whether the tools the oracle needs are installed.
func Available(opts Options) error {
	for _, tool := range []string{or(opts.Java, "java"), or(opts.Mvn, "mvn")} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrUnavailable, tool, err)
		}
	}
	return nil
}

// Oracle is a running reference process. Validate may be called from several
// goroutines; requests are serialised (the process is sequential).
type Oracle struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stages []string
	broken error // set once the stream is out of sync; all later calls fail
	done   chan struct{}
	werr   error // process exit status, valid after done is closed
}

// Stages returns the stage names (the .sch file names) in order.
func (o *Oracle) Stages() []string { return append([]string(nil), o.stages...) }

// DefaultDir returns the directory of the Maven project (next to this file).
func DefaultDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("oracle: cannot locate the Maven project (runtime.Caller)")
	}
	return filepath.Dir(file), nil
}

// Build makes sure dir/target/oracle.jar exists and is newer than pom.xml and
// every file under src/, running `mvn -q -B package` otherwise. It returns
// the jar's path.
func Build(ctx context.Context, dir, mvn string, stderr io.Writer) (string, error) {
	jar := filepath.Join(dir, "target", "oracle.jar")
	stale, err := jarStale(dir, jar)
	if err != nil {
		return "", err
	}
	if !stale {
		return jar, nil
	}
	// Several test binaries (go test ./...) may start at once: one builds.
	unlock, err := lockBuild(ctx, filepath.Join(dir, "target", ".build-lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if stale, err = jarStale(dir, jar); err != nil || !stale {
		return jar, err
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, or(mvn, "mvn"), "-q", "-B", "package", "-DskipTests")
	cmd.Dir = dir
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		if stderr != nil {
			_, _ = stderr.Write(out.Bytes())
		}
		return "", fmt.Errorf("oracle: mvn package in %s: %w: %s", dir, err, tail(out.String(), 2000))
	}
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("oracle: mvn package did not produce %s: %w", jar, err)
	}
	return jar, nil
}

// lockBuild takes an exclusive lock file (O_EXCL, portable), waiting while
// another process holds it; a lock older than 20 minutes is taken as stale.
func lockBuild(ctx context.Context, path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			_ = f.Close()
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("oracle: build lock: %w", err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > 20*time.Minute {
			_ = os.Remove(path)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("oracle: waiting for another build (%s): %w", path, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func jarStale(dir, jar string) (bool, error) {
	ji, err := os.Stat(jar)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("oracle: %w", err)
	}
	newest := time.Time{}
	check := func(p string) error {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
		return nil
	}
	if err := check(filepath.Join(dir, "pom.xml")); err != nil {
		return false, fmt.Errorf("oracle: %w", err)
	}
	err = filepath.WalkDir(filepath.Join(dir, "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		return check(p)
	})
	if err != nil {
		return false, fmt.Errorf("oracle: scanning sources: %w", err)
	}
	return newest.After(ji.ModTime()), nil
}

// Start builds the jar if needed, starts the serve process and waits until
// every stage is compiled. ctx bounds the start only; the process lives
// until Close.
func Start(ctx context.Context, opts Options) (*Oracle, error) {
	if len(opts.Sch) == 0 {
		return nil, errors.New("oracle: no Schematron file given")
	}
	if err := Available(opts); err != nil {
		return nil, err
	}
	dir := opts.Dir
	if dir == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = 20 * time.Minute
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	jar, err := Build(sctx, dir, opts.Mvn, opts.Stderr)
	if err != nil {
		return nil, err
	}
	args := append(append([]string(nil), opts.JVMArgs...), "-jar", jar, "serve")
	switch opts.CacheDir {
	case "-":
	case "":
		args = append(args, "--cache", filepath.Join(dir, "target", "cache"))
	default:
		args = append(args, "--cache", opts.CacheDir)
	}
	for _, s := range opts.Sch {
		abs, err := filepath.Abs(s)
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		args = append(args, "--sch", abs)
	}
	// The process must outlive ctx (it is kept warm), so it is not bound to it.
	cmd := exec.Command(or(opts.Java, "java"), args...)
	cmd.Stderr = opts.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("oracle: start java: %w", err)
	}
	o := &Oracle{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<16), done: make(chan struct{})}
	go func() {
		o.werr = cmd.Wait()
		close(o.done)
	}()
	line, err := o.readLine(sctx)
	if err != nil {
		_ = o.Close()
		return nil, fmt.Errorf("oracle: waiting for the stages to compile: %w", err)
	}
	var ready struct {
		Ready  bool     `json:"ready"`
		Stages []string `json:"stages"`
	}
	if err := json.Unmarshal(line, &ready); err != nil || !ready.Ready {
		_ = o.Close()
		return nil, fmt.Errorf("oracle: unexpected first line %q", tail(string(line), 300))
	}
	o.stages = ready.Stages
	return o, nil
}

// readLine reads one line, giving up when ctx ends or the process exits.
// After a give-up the stream is out of sync, so the caller must mark the
// oracle broken.
func (o *Oracle) readLine(ctx context.Context) ([]byte, error) {
	type res struct {
		b   []byte
		err error
	}
	ch := make(chan res, 1)
	go func() {
		b, err := o.stdout.ReadBytes('\n')
		ch <- res{b, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, o.exitErr(r.err)
		}
		return r.b, nil
	case <-ctx.Done():
		o.kill()
		return nil, ctx.Err()
	}
}

func (o *Oracle) exitErr(err error) error {
	select {
	case <-o.done:
		return fmt.Errorf("oracle process ended (%v): %w", o.werr, err)
	case <-time.After(2 * time.Second):
		return err
	}
}

// Validate sends one document and returns the reference's findings. name is
// echoed as Result.File (newlines are replaced). When ctx ends during a
// request the process is killed and the Oracle becomes unusable.
func (o *Oracle) Validate(ctx context.Context, name string, doc []byte) (*Result, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken != nil {
		return nil, o.broken
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name = strings.NewReplacer("\n", " ", "\r", " ").Replace(name)
	header := fmt.Sprintf("#bytes %d %s\n", len(doc), name)
	if err := o.write(ctx, header, doc); err != nil {
		o.broken = fmt.Errorf("oracle: unusable after a failed request: %w", err)
		o.kill()
		return nil, fmt.Errorf("oracle: send %s: %w", name, err)
	}
	line, err := o.readLine(ctx)
	if err != nil {
		o.broken = fmt.Errorf("oracle: unusable after a failed request: %w", err)
		o.kill()
		return nil, fmt.Errorf("oracle: result for %s: %w", name, err)
	}
	var r Result
	if err := json.Unmarshal(line, &r); err != nil {
		o.broken = fmt.Errorf("oracle: unusable after a bad answer: %w", err)
		o.kill()
		return nil, fmt.Errorf("oracle: decode result for %s: %w (%q)", name, err, tail(string(line), 300))
	}
	if r.File != name {
		o.broken = fmt.Errorf("oracle: answer for %q while waiting for %q", r.File, name)
		o.kill()
		return nil, o.broken
	}
	return &r, nil
}

// write sends header and body, giving up when ctx ends (a full pipe blocks).
func (o *Oracle) write(ctx context.Context, header string, body []byte) error {
	ch := make(chan error, 1)
	go func() {
		if _, err := io.WriteString(o.stdin, header); err != nil {
			ch <- err
			return
		}
		_, err := o.stdin.Write(body)
		ch <- err
	}()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		o.kill()
		return ctx.Err()
	}
}

func (o *Oracle) kill() {
	if o.cmd.Process != nil {
		_ = o.cmd.Process.Kill()
	}
}

// Close ends the process: stdin is closed so it exits on its own; it is
// killed if it has not after 5 seconds.
func (o *Oracle) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken == nil {
		o.broken = errors.New("oracle: closed")
	}
	_ = o.stdin.Close()
	select {
	case <-o.done:
	case <-time.After(5 * time.Second):
		o.kill()
		<-o.done
	}
	var ee *exec.ExitError
	if o.werr != nil && !errors.As(o.werr, &ee) {
		return fmt.Errorf("oracle: %w", o.werr)
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// Usable reports whether the process can still take requests (not closed,
// not killed after a failed or cancelled request).
func (o *Oracle) Usable() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.broken == nil
}
