// Package concurrenttest owns the harness of the tests that call what
// concurrent requests share (compiled rule sets, pooled evaluation
// contexts) from several goroutines at once. Imported by tests only.
package concurrenttest

import (
	"fmt"
	"sync"
	"testing"
)

// Run calls check(g, i) for i = 0 .. calls-1 on each of goroutines
// goroutines, all at once, and reports on t the first error of each
// goroutine.
func Run(t testing.TB, goroutines, calls int, check func(g, i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				if err := check(g, i); err != nil {
					errs <- fmt.Errorf("goroutine %d, call %d: %w", g, i, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
