package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws a one-line progress bar on stderr while `validate` works
// through many files. It is shown only when stderr is a terminal, so
// scripts, pipes and CI logs never see it; a nil *progress is a no-op.
type progress struct {
	w     io.Writer
	total int
	done  atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
}

// newProgress returns a progress bar for total files on w, or nil when w
// is not a terminal or there is only one file.
func newProgress(w io.Writer, total int) *progress {
	if total < 2 || !isTerminal(w) {
		return nil
	}
	return startProgress(w, total, 100*time.Millisecond)
}

func startProgress(w io.Writer, total int, every time.Duration) *progress {
	p := &progress{w: w, total: total, stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				fmt.Fprint(p.w, "\r"+p.line())
			}
		}
	}()
	return p
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// line renders "[#####.....]  12/40 files".
func (p *progress) line() string {
	const width = 30
	n := int(p.done.Load())
	filled := width * n / p.total
	return fmt.Sprintf("[%s%s] %*d/%d files", strings.Repeat("#", filled), strings.Repeat(".", width-filled), len(fmt.Sprint(p.total)), n, p.total)
}

// fileDone counts one finished file.
func (p *progress) fileDone() {
	if p != nil {
		p.done.Add(1)
	}
}

// finish stops drawing and erases the bar, so results start on a clean line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	fmt.Fprint(p.w, "\r\033[K")
}
