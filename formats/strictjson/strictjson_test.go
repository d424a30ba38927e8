package strictjson

import (
	"reflect"
	"testing"

	"github.com/einvoice-dev/einvoice/formats/model"
)

type inner struct {
	Code string `json:"code" required:"true"`
}

type outer struct {
	Name  string         `json:"name" required:"true"`
	Rate  *model.Decimal `json:"rate,omitempty"`
	Day   model.Date     `json:"day"`
	Flag  bool           `json:"flag,omitempty"`
	Inner *inner         `json:"inner,omitempty"`
	List  []inner        `json:"list,omitempty"`
}

func TestDecode(t *testing.T) {
	var o outer
	if ps := Decode([]byte(`{"name":"x","rate":"1.50","day":"2024-02-29","flag":true,"inner":{"code":"A"},"list":[{"code":"B"}]}`), &o); ps != nil {
		t.Fatal(ps)
	}
	if o.Rate == nil || o.Rate.String() != "1.50" || o.Day.String() != "2024-02-29" || !o.Flag || o.Inner.Code != "A" || o.List[0].Code != "B" {
		t.Fatalf("%+v", o)
	}
	ps := Decode([]byte(`{"name":"","rate":1e999x,"zzz":1}`), &outer{}, "body")
	if len(ps) != 1 || ps[0].Type != model.ProblemJSONInvalid {
		t.Fatalf("syntax: %v", ps)
	}
	ps = Decode([]byte(`{"name":"","rate":"abc","day":"2023-02-29","zzz":1,"inner":{},"list":[null, 3],"flag":"yes"}`), &outer{}, "body")
	got := map[string]string{}
	for _, p := range ps {
		got[model.LocString(p.Loc)] = p.Type
	}
	want := map[string]string{"body.name": model.ProblemStringTooShort, "body.rate": model.ProblemDecimalParsing,
		"body.day": model.ProblemDateParsing, "body.zzz": ProblemExtraForbidden, "body.inner.code": model.ProblemMissing,
		"body.list[0]": model.ProblemMissing, "body.list[1]": model.ProblemObjectType, "body.flag": model.ProblemBoolType}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	m := Members(reflect.TypeFor[outer]())
	if !reflect.DeepEqual(m["outer"], []string{"name*", "rate", "day", "flag", "inner", "list"}) || !reflect.DeepEqual(m["inner"], []string{"code*"}) {
		t.Fatalf("members %v", m)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"x","rate":"1.50","day":"2024-02-29","list":[{"code":"B"}]}`))
	f.Add([]byte(`{"list":[null,{},[]],"inner":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var o outer
		for _, p := range Decode(data, &o, "body") {
			if len(p.Loc) == 0 || p.Loc[0] != "body" || p.Type == "" || p.Msg == "" {
				t.Fatalf("bad problem %+v", p)
			}
		}
	})
}
