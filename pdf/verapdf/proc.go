package verapdf

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// proc is one worker process. Its stdout is read by one goroutine that
// hands every line to lines and closes lines at EOF (the process exited).
type proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan []byte
	done    chan struct{} // closed after cmd.Wait returned
	waitErr error         // valid after done is closed
	stderr  *tailWriter
	version string

	killOnce sync.Once
}

// startProc runs the worker and waits for its ready line.
func (c *Client) startProc() (*proc, error) {
	if err := c.canStart(); err != nil {
		return nil, err
	}
	java, err := exec.LookPath(c.opts.Java)
	if err != nil {
		return nil, &UnavailableError{Reason: "java executable not found", Err: err}
	}
	jar := c.opts.Jar
	args := append(append([]string{}, c.opts.JVMArgs...), "-jar", jar,
		"--timeout-ms", strconv.FormatInt(c.opts.Timeout.Milliseconds(), 10))
	cmd := exec.Command(java, args...)
	p := &proc{cmd: cmd, lines: make(chan []byte, 4), done: make(chan struct{}), stderr: &tailWriter{max: 4096}}
	if c.opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(p.stderr, c.opts.Stderr)
	} else {
		cmd.Stderr = p.stderr
	}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, &UnavailableError{Reason: "cannot start the worker", Err: err}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &UnavailableError{Reason: "cannot start the worker", Err: err}
	}
	if err := cmd.Start(); err != nil {
		return nil, &UnavailableError{Reason: "cannot start the worker", Err: err}
	}
	go p.read(stdout)

	timer := time.NewTimer(c.opts.StartTimeout)
	defer timer.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			return nil, &UnavailableError{Reason: "the worker exited during start-up", Err: p.exitErr(nil)}
		}
		var r response
		if err := json.Unmarshal(line, &r); err != nil || !r.Ready {
			p.kill()
			return nil, &UnavailableError{Reason: "the worker's first line is not its ready line", Err: fmt.Errorf("%.200q", line)}
		}
		p.version = r.Validator.Version
		return p, nil
	case <-timer.C:
		p.kill()
		return nil, &UnavailableError{Reason: fmt.Sprintf("the worker did not start within %s", c.opts.StartTimeout), Err: p.exitErr(nil)}
	}
}

func (p *proc) read(stdout io.Reader) {
	br := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			p.lines <- line[:len(line)-1]
		}
		if err != nil {
			break
		}
	}
	p.waitErr = p.cmd.Wait()
	close(p.done)
	close(p.lines)
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the process at once and waits for it.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		_ = p.stdin.Close()
		_ = p.cmd.Process.Kill()
	})
	// Drain so that the reader goroutine can reach Wait.
	for {
		select {
		case <-p.done:
			return
		case <-p.lines:
		}
	}
}

// stop asks the worker to exit (EOF on stdin) and kills it after a second.
func (p *proc) stop() {
	_ = p.stdin.Close()
	select {
	case <-p.done:
	case <-time.After(time.Second):
		p.kill()
	}
}

// exitErr describes why the process ended (exit status and stderr tail),
// or returns fallback when it is still running.
func (p *proc) exitErr(fallback error) error {
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
		return fallback
	}
	msg := "exited"
	if p.waitErr != nil {
		msg = p.waitErr.Error()
	}
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		msg += "; stderr: " + t
	}
	return errors.New(msg)
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (w *tailWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(b), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
