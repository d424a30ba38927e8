package model

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"0", "0", true}, {"12.50", "12.50", true}, {"-0.005", "-0.005", true}, {"+3", "3", true},
		{".5", "0.5", true}, {"5.", "5", true}, {"123456789012345678901234567890.123", "123456789012345678901234567890.123", true},
		{"", "", false}, {"1e3", "", false}, {"1,5", "", false}, {" 1", "", false}, {"1.2.3", "", false}, {"-", "", false},
		{"--1", "", false}, {"1-", "", false}, {"NaN", "", false},
	} {
		d, err := ParseDecimal(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseDecimal(%q) err = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && d.String() != tc.want {
			t.Errorf("ParseDecimal(%q) = %s, want %s", tc.in, d, tc.want)
		}
		var de *DecimalError
		if !tc.ok && !errors.As(err, &de) {
			t.Errorf("ParseDecimal(%q) error %T is not *DecimalError", tc.in, err)
		}
	}
}

func TestParseJSONNumber(t *testing.T) {
	for in, want := range map[string]string{
		"1e3": "1000", "1.5E-2": "0.015", "-2.5e+1": "-25", "0.1": "0.1", "19": "19", "1e-70": "", "1e99": "",
	} {
		d, err := parseJSONNumber(in)
		if want == "" {
			if err == nil {
				t.Errorf("parseJSONNumber(%q) = %s, want error", in, d)
			}
			continue
		}
		if err != nil || d.String() != want {
			t.Errorf("parseJSONNumber(%q) = %s, %v; want %s", in, d, err, want)
		}
	}
}

func TestDecimalRoundHalfAwayFromZero(t *testing.T) {
	for _, tc := range []struct {
		in   string
		p    int32
		want string
	}{
		{"0.005", 2, "0.01"}, {"-0.005", 2, "-0.01"}, {"0.0049", 2, "0.00"}, {"2.675", 2, "2.68"},
		{"1.005", 2, "1.01"}, {"-1.005", 2, "-1.01"}, {"1.004999", 2, "1.00"}, {"10.5", 0, "11"}, {"-10.5", 0, "-11"},
		{"12.345", 2, "12.35"}, {"12.3", 2, "12.30"}, {"99.995", 2, "100.00"}, {"0.125", 2, "0.13"},
		{"123456789012345678901234.565", 2, "123456789012345678901234.57"},
	} {
		if got := MustParseDecimal(tc.in).Round(tc.p).String(); got != tc.want {
			t.Errorf("Round(%s, %d) = %s, want %s", tc.in, tc.p, got, tc.want)
		}
	}
}

func TestDecimalArithmetic(t *testing.T) {
	a, b := MustParseDecimal("10.10"), MustParseDecimal("0.2")
	if got := a.Add(b).String(); got != "10.30" {
		t.Errorf("Add = %s", got)
	}
	if got := a.Sub(b).String(); got != "9.90" {
		t.Errorf("Sub = %s", got)
	}
	if got := a.Mul(b).String(); got != "2.020" {
		t.Errorf("Mul = %s", got)
	}
	// 0.1 + 0.2 is exactly 0.3 (it is not in binary floating point).
	if !MustParseDecimal("0.1").Add(MustParseDecimal("0.2")).Equal(MustParseDecimal("0.30")) {
		t.Error("0.1 + 0.2 != 0.3")
	}
	for _, tc := range []struct {
		a, b string
		p    int32
		want string
	}{
		{"1", "3", 2, "0.33"}, {"2", "3", 2, "0.67"}, {"-2", "3", 2, "-0.67"}, {"1", "8", 2, "0.13"},
		{"-1", "8", 2, "-0.13"}, {"100", "7", 4, "14.2857"}, {"0.0049999999999999999996", "1", 2, "0.00"},
		{"0.005", "1", 2, "0.01"}, {"12.5", "0.5", 0, "25"}, {"1", "-0.03", 3, "-33.333"},
	} {
		got, err := MustParseDecimal(tc.a).Div(MustParseDecimal(tc.b), tc.p)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s / %s (%d) = %s, %v; want %s", tc.a, tc.b, tc.p, got, err, tc.want)
		}
	}
	if _, err := a.Div(Decimal{}, 2); !errors.Is(err, ErrDivisionByZero) {
		t.Errorf("Div by zero: %v", err)
	}
}

func TestDecimalStringFixedAndJSON(t *testing.T) {
	for in, want := range map[string]string{"12.5": "12.50", "3": "3.00", "0.125": "0.125", "-0.1": "-0.10"} {
		if got := MustParseDecimal(in).StringFixed(2); got != want {
			t.Errorf("StringFixed(%s) = %s, want %s", in, got, want)
		}
	}
	var v struct{ A, B Decimal }
	if err := json.Unmarshal([]byte(`{"A": "1.10", "B": 2.5e1}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A.String() != "1.10" || v.B.String() != "25" {
		t.Errorf("unmarshal = %s, %s", v.A, v.B)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"A":"1.10","B":"25"}` {
		t.Errorf("marshal = %s", b)
	}
	if err := json.Unmarshal([]byte(`{"A": "x"}`), &v); err == nil {
		t.Error("bad decimal accepted")
	}
}

func TestDecimalNegativePlaces(t *testing.T) {
	if got := MustParseDecimal("12.5").Round(-3).String(); got != "13" {
		t.Errorf("Round(-3) = %s", got)
	}
	if got, err := MustParseDecimal("7").Div(MustParseDecimal("2"), -1); err != nil || got.String() != "4" {
		t.Errorf("Div(-1) = %s, %v", got, err)
	}
}

func TestDecimalDisplayScale(t *testing.T) {
	a := MustParseDecimal("1.50")
	if !a.Equal(MustParseDecimal("1.5")) || a.Cmp(MustParseDecimal("1.5000")) != 0 {
		t.Error("display scale affects comparison")
	}
	if a.Scale() != 1 || a.DisplayScale() != 2 {
		t.Errorf("Scale = %d, DisplayScale = %d", a.Scale(), a.DisplayScale())
	}
	if got := NewDecimal(1000, 2).String(); got != "10.00" {
		t.Errorf("NewDecimal(1000, 2) = %s", got)
	}
	if got := MustParseDecimal("7").WithScale(2).String(); got != "7.00" {
		t.Errorf("WithScale = %s", got)
	}
	if got := MustParseDecimal("-0.00").String(); got != "0.00" {
		t.Errorf("-0.00 = %s", got)
	}
}

func TestDocumentTypeCodes(t *testing.T) {
	vals := DocumentTypeCode("").enumValues()
	seen := map[string]bool{}
	for _, v := range vals {
		if seen[v] {
			t.Errorf("duplicate %s", v)
		}
		seen[v] = true
	}
	if len(vals) != 62 || !seen["380"] || !seen["381"] || !seen["81"] {
		t.Errorf("%d codes", len(vals))
	}
	for c, want := range map[DocumentTypeCode]bool{"380": false, "381": true, "81": false, "396": true, "384": false} {
		if c.IsCreditNote() != want {
			t.Errorf("%s.IsCreditNote() = %v", c, !want)
		}
	}
}

func TestParseDate(t *testing.T) {
	for in, ok := range map[string]bool{
		"2024-02-29": true, "2023-02-29": false, "2024-13-01": false, "2024-1-01": false, "20240101": false,
		"2024-01-01T10:00:00Z": false, "+024-01-01": false, "2024-01-00": false, "2024-04-31": false, "2024-12-31": true,
		"2024-0-101": false, "2024--1-01": false,
	} {
		d, err := ParseDate(in)
		if (err == nil) != ok {
			t.Errorf("ParseDate(%q) = %v, %v; want ok=%v", in, d, err, ok)
		}
		if ok && d.String() != in {
			t.Errorf("ParseDate(%q).String() = %s", in, d)
		}
	}
	if got := NewDate(2024, 3, 9).Compact(); got != "20240309" {
		t.Errorf("Compact = %s", got)
	}
}

// TestParseDecimalDigitBound: the bound counts the digits the canonical form
// prints, so every accepted value is accepted again as String() prints it
// (found by FuzzDecimal: ".000…1" with 65 characters printed as "0.000…1").
func TestParseDecimalDigitBound(t *testing.T) {
	frac := strings.Repeat("0", maxDecimalDigits-1) + "1"
	for _, s := range []string{"." + frac, "-." + frac, "+0." + frac, "00" + strings.Repeat("9", maxDecimalDigits), strings.Repeat("9", maxDecimalDigits/2) + "." + strings.Repeat("9", maxDecimalDigits/2)} {
		d, err := ParseDecimal(s)
		if err != nil {
			t.Errorf("ParseDecimal(%q): %v", s, err)
			continue
		}
		if back, err := ParseDecimal(d.String()); err != nil || !back.Equal(d) {
			t.Errorf("ParseDecimal(%q).String() = %q does not parse back: %v", s, d.String(), err)
		}
	}
	for _, s := range []string{".0" + frac, strings.Repeat("9", maxDecimalDigits+1), "1." + frac, "-0.0" + frac} {
		var de *DecimalError
		if _, err := ParseDecimal(s); !errors.As(err, &de) || de.Msg != "too many digits" {
			t.Errorf("ParseDecimal(%q) = %v, want too many digits", s, err)
		}
	}
}
