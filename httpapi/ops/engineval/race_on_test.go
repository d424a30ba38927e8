//go:build race

package engineval

// raceEnabled: the race detector is on. Under it sync.Pool drops a share
// of what is put back, on purpose, so allocation counts that rely on
// pooled buffers (TestOwnedBody) say nothing about the product.
const raceEnabled = true
