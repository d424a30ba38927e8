package convert

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
)

// FuzzConvert feeds arbitrary bytes to every direction. Convert must not
// panic; an error must be one of the documented input errors; a result must
// come without losses and a refusal without a result.
func FuzzConvert(f *testing.F) {
	_, plain := convertible(f, "")
	_, xr := convertible(f, XRechnungSpecID)
	f.Add(plain, uint8(0))
	f.Add(xr, uint8(4))
	f.Add(sharedFile(f, "corpus/en16931/cii/examples/CII_example1.xml"), uint8(1))
	f.Add([]byte("<Invoice/>"), uint8(0))
	f.Fuzz(checkConvert)
}

// TestConvertMutations runs checkConvert on 1500 random byte mutations of a
// converting document (the fuzzer's own exploration is too slow on the
// shared machine to rely on alone).
func TestConvertMutations(t *testing.T) {
	_, plain := convertible(t, "")
	r := rand.New(rand.NewPCG(11, 5))
	const alphabet = "<>/=\"a0.-9 Tx"
	for i := range 1500 {
		data := append([]byte(nil), plain...)
		for range 1 + r.IntN(4) {
			data[r.IntN(len(data))] = alphabet[r.IntN(len(alphabet))]
		}
		checkConvert(t, data, uint8(i))
	}
}

func checkConvert(t *testing.T, data []byte, dir uint8) {
	allowed := []error{ErrParse, ErrSourceSyntax, ErrNotXRechnung}
	d := directions[int(dir)%len(directions)]
	res, losses, err := Convert(context.Background(), d, data, Options{})
	if err != nil {
		for _, a := range allowed {
			if errors.Is(err, a) {
				return
			}
		}
		t.Fatalf("%s: unexpected error %v", d, err)
	}
	if (res == nil) == (len(losses) == 0) {
		t.Fatalf("%s: result %v with %d losses", d, res != nil, len(losses))
	}
	for _, l := range losses {
		if l.Path == "" || l.Reason == "" {
			t.Fatalf("%s: incomplete loss %+v", d, l)
		}
	}
}
