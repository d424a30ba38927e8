package model

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// allowedProblemTypes is the allow-list of what DecodeInvoice and Complete
// may report for any input; anything else (a panic, another error) is a bug.
var allowedProblemTypes = map[string]bool{
	ProblemJSONInvalid: true, ProblemLimitExceeded: true, ProblemMissing: true, ProblemStringType: true,
	ProblemStringTooShort: true, ProblemDecimalType: true, ProblemDecimalParsing: true, ProblemDateType: true,
	ProblemDateParsing: true, ProblemEnum: true, ProblemObjectType: true, ProblemListType: true, ProblemTooShort: true,
	ProblemBase64: true, ProblemDuplicateKey: true, ProblemValueError: true, ProblemBoolType: true,
}

func FuzzDecodeInvoice(f *testing.F) {
	f.Add([]byte(minimalJSON))
	f.Add([]byte(`{"id": 1, "lines": [{"quantity": "1e3", "category": "X"}], "seller": null}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`))
	f.Add([]byte(`{"id":"a","id":"b"}`))
	f.Add([]byte(`{"lines":[{"id":"1","quantity":1,"unit_code":"C62","net_price":"2","category":"STANDARD","item":{"name":"a"},` +
		`"sub_lines":[{"id":"1.1","quantity":"2","net_amount":"3","item":{},"sub_lines":[null,{"allowances":[{}]}]}]}]}`))
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 4; i++ {
		b, err := EncodeInvoice(RandomInvoice(r, RandomOptions{Incomplete: i%2 == 0}))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		inv, _, problems, err := DecodeInvoice(data, "body")
		if err != nil {
			var ps Problems
			if !errors.As(err, &ps) || len(ps) == 0 || len(ps) != len(problems) {
				t.Fatalf("error is not a Problems list: %T %v", err, err)
			}
			for _, p := range ps {
				if !allowedProblemTypes[p.Type] || p.Msg == "" || len(p.Loc) == 0 || p.Loc[0] != "body" {
					t.Fatalf("unexpected problem %+v", p)
				}
			}
			if inv != nil {
				t.Fatal("invoice returned with problems")
			}
			return
		}
		// A decoded invoice re-encodes canonically and decodes to the same model.
		b, err := EncodeInvoice(inv)
		if err != nil {
			t.Fatal(err)
		}
		back, _, _, err := DecodeInvoice(b)
		if err != nil {
			t.Fatalf("canonical form does not decode: %v\n%s", err, b)
		}
		if d := Diff(inv, back); len(d) != 0 {
			t.Fatalf("round trip differs at %v\n%s", d, b)
		}
		if b2, _ := EncodeInvoice(back); !bytes.Equal(b, b2) {
			t.Fatalf("encoding not stable:\n%s\n%s", b, b2)
		}
		// Complete never panics; it fails only with calculation errors.
		if _, err := inv.Complete(); err != nil && !IsCalculationError(err) {
			t.Fatalf("Complete: %v", err)
		}
	})
}
