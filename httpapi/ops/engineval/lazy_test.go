package engineval

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// TestLazyEqualsEager proves that a lazy validator (the CLI's) gives the same
// reports as the eager one, including when many goroutines hit a profile and
// schema that are not compiled yet, and that Warm then compiles the rest.
func TestLazyEqualsEager(t *testing.T) {
	lazy, err := New(shared(), Lazy())
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	cases := []ops.ValidateRequest{
		{Syntax: "ubl", Profile: "en16931", Body: corpus(t, "en16931/ubl/examples/ubl-tc434-example1.xml")},
		{Syntax: "cii", Profile: "en16931", Body: corpus(t, "en16931/cii/examples/CII_example1.xml")},
		{Syntax: "ubl", Profile: "en16931", Body: []byte(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`)},
	}
	canon := func(v *Validator, req ops.ValidateRequest) string {
		rep, err := (&ops.Service{Validator: v}).Validate(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", req.Syntax, err)
		}
		rep.DurationMS = 0
		b, _ := json.Marshal(rep)
		return string(b)
	}
	for _, req := range cases {
		want := canon(testValidator, req)
		var wg sync.WaitGroup
		got := make([]string, 8)
		for i := range got {
			wg.Add(1)
			go func() { defer wg.Done(); got[i] = canon(lazy, req) }()
		}
		wg.Wait()
		for _, g := range got {
			if g != want {
				t.Fatalf("lazy report differs:\n got %s\nwant %s", g, want)
			}
		}
	}
	// Warm raises the GC target while it compiles and restores the
	// process's own afterwards (here a value above the default and below
	// warmGCPercent, as an operator's GOGC=150 would be).
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)
	if err := lazy.Warm(context.Background()); err != nil {
		t.Fatalf("warm: %v", err)
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("after Warm GOGC is %d, want the 150 set before", got)
	}
	if n, want := len(lazy.schemas), len(testValidator.schemas); n != want {
		t.Fatalf("after Warm %d schemas compiled, eager has %d", n, want)
	}
}

// TestLazyMissingShared fails at New, not on the first document.
func TestLazyMissingShared(t *testing.T) {
	if _, err := New(t.TempDir(), Lazy()); err == nil {
		t.Fatal("New with an empty shared directory succeeded")
	}
}
