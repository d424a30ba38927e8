//go:build !race

package engineval

// raceEnabled: the race detector is on (see race_on_test.go).
const raceEnabled = false
