package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzAuthenticate feeds untrusted x-api-key values to Authenticate on a real
// SQLite store holding one key. Allowed outcomes: success for exactly that key,
// ErrUnknownKey for anything else. Any other error or a panic is a bug. The
// format check must agree with the documented shape. Crashers go to
// testdata/fuzz/FuzzAuthenticate.
func FuzzAuthenticate(f *testing.F) {
	ctx := context.Background()
	s, err := Open(ctx, Config{DataDir: filepath.Join(f.TempDir(), "data")})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = s.Close() })
	key, plain, err := s.CreateKey(ctx, "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		plain, plain[:39], plain + "x", strings.ToUpper(plain), "", KeyPrefix,
		KeyPrefix + strings.Repeat("A", 32), "Bearer " + plain, plain[:20] + "é" + plain[22:],
		KeyPrefix + "' OR '1'='1" + strings.Repeat("a", 21), "\x00" + plain[1:],
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := wellFormedKey(in), keyShapeRE.MatchString(in); got != want {
			t.Fatalf("wellFormedKey(%q) = %v, shape regexp says %v", in, got, want)
		}
		k, err := s.Authenticate(ctx, in)
		switch {
		case in == plain:
			if err != nil || k.ID != key.ID {
				t.Fatalf("Authenticate(the key) = %+v, %v", k, err)
			}
		case err == nil:
			t.Fatalf("Authenticate(%q) accepted a key that was never issued: %+v", in, k)
		case !errors.Is(err, ErrUnknownKey):
			t.Fatalf("Authenticate(%q) = %v; only ErrUnknownKey is allowed", in, err)
		}
	})
}
