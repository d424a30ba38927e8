package repair

import "testing"

func TestNormalizeDate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		out  dateOutcome
	}{
		{"2026-03-04", "2026-03-04", dateISO},
		{"20260304", "2026-03-04", dateFixed},
		{"2026/03/04", "2026-03-04", dateFixed},
		{"2026.3.4", "2026-03-04", dateFixed},
		{"2026-3-4", "2026-03-04", dateFixed},
		{"04.03.2026", "2026-03-04", dateFixed},
		{"4.3.2026", "2026-03-04", dateFixed},
		{"24/03/2026", "2026-03-24", dateFixed},
		{"24-03-2026", "2026-03-24", dateFixed},
		{"03/24/2026", "2026-03-24", dateFixed},
		{"05/05/2026", "2026-05-05", dateFixed},
		{"2026-03-04T10:15:00", "2026-03-04", dateFixed},
		{"2026-03-04T10:15:00+01:00", "2026-03-04", dateFixed},
		{"03/04/2026", "", dateAmbiguous},
		{"03-04-2026", "", dateAmbiguous},
		{"12/11/2026", "", dateAmbiguous},
		{"2026-02-30", "", dateInvalid},
		{"20260230", "", dateInvalid},
		{"31.02.2026", "", dateInvalid},
		{"31/13/2026", "", dateInvalid},
		{"2026/03-04", "", dateInvalid},
		{"13/14/2026", "", dateInvalid},
		{"04.03.26", "", dateInvalid},
		{"tomorrow", "", dateInvalid},
		{"", "", dateInvalid},
	} {
		got, out, reason := normalizeDate(c.in)
		if got != c.want || out != c.out {
			t.Errorf("normalizeDate(%q) = %q, %d (%s); want %q, %d", c.in, got, out, reason, c.want, c.out)
		}
		if out != dateISO && reason == "" {
			t.Errorf("normalizeDate(%q): no reason", c.in)
		}
	}
}
