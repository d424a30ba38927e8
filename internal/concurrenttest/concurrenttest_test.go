package concurrenttest

import (
	"errors"
	"sync/atomic"
	"testing"
)

// fakeT records what Run reports.
type fakeT struct {
	testing.TB
	errs atomic.Int32
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Error(args ...any) { f.errs.Add(1) }

// TestRun: every call runs; a failing goroutine stops and is reported once.
func TestRun(t *testing.T) {
	var calls atomic.Int32
	ft := &fakeT{}
	Run(ft, 4, 10, func(g, i int) error {
		calls.Add(1)
		if g == 1 && i == 3 {
			return errors.New("boom")
		}
		return nil
	})
	if got := calls.Load(); got != 3*10+4 {
		t.Errorf("%d calls, want 34 (goroutine 1 stops after its failing call)", got)
	}
	if got := ft.errs.Load(); got != 1 {
		t.Errorf("%d errors reported, want 1", got)
	}
}
