package render

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/einvoice-dev/einvoice/pdf/layout"
	"github.com/einvoice-dev/einvoice/pdf/pdfa"
)

// Report is a validation report to print (the transport's report type is
// converted by the caller; formats does not import httpapi).
type Report struct {
	Valid    bool
	Complete bool
	Profile  string
	Syntax   string
	Rulesets []RulesetVersion
	Fatal    int
	Warning  int
	Findings []ReportFinding
	Duration time.Duration
}

// RulesetVersion names one applied rule set or schema.
type RulesetVersion struct{ Name, Version string }

// ReportFinding is one finding of a Report.
type ReportFinding struct {
	RuleID, Flag, Message, Location string
	Line                            int
}

var (
	colValid   = pdfa.Color{R: 0.10, G: 0.50, B: 0.22}
	colInvalid = pdfa.Color{R: 0.72, G: 0.11, B: 0.11}
)

// reportText is a label of the report ("rep." keys of the one
// translation table).
func reportText(lang Lang, key string) string { return text(lang, "rep."+key) }

// ReportPDF prints rep as a paginated PDF/A-3b document: a VALID or
// INVALID banner, the profile and rule-set versions, the counts and a
// table of findings (rule id, flag, message, location) whose header repeats
// on every page.
func ReportPDF(ctx context.Context, rep *Report, opts Options) (_ []byte, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("render.ReportPDF: %w", err)
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lang := opts.Lang
	if lang != German {
		lang = English
	}
	icc, err := opts.icc()
	if err != nil {
		return nil, err
	}
	d, err := layout.New(layout.Options{
		PDF: pdfa.Options{ICC: icc, Time: opts.Time},
		PageLabel: func(page, pages int) string {
			return fmt.Sprintf("%s %d %s %d", text(lang, "page"), page, text(lang, "of"), pages)
		},
	})
	if err != nil {
		return nil, err
	}
	rt := func(k string) string { return reportText(lang, k) }
	d.PDF().SetInfo(pdfa.Info{Title: rt("title") + " (" + rep.Profile + ")", Creator: "einvoice validate"})
	d.Paragraph(rt("title"), stTitle)
	d.Space(6)

	verdict, col := rt("valid"), colValid
	if !rep.Valid {
		verdict, col = rt("invalid"), colInvalid
	}
	banner := &layout.Table{Columns: []layout.Column{{Weight: 1, Align: layout.Center}}, Padding: 8,
		Rows: []layout.Row{{Fill: &col, Cells: []layout.Cell{{Text: verdict, Style: &layout.Style{Font: layout.Bold, Size: 22, Color: pdfa.White}}}}}}
	if !rep.Complete {
		banner.Rows[0].Cells[0].More = []layout.Para{{Text: rt("incomplete"), Style: layout.Style{Size: 9, Color: pdfa.White}}}
	}
	d.Table(banner)
	d.Space(10)

	info := rep.Fatal + rep.Warning
	info = len(rep.Findings) - info
	kv := &layout.Table{Columns: []layout.Column{{Width: 120}, {Weight: 1}}, Style: stValue, Padding: 2, Border: layout.BorderRows, BorderColor: colLine}
	addKV := func(k, v string) {
		kv.Rows = append(kv.Rows, layout.Row{Cells: []layout.Cell{{Text: rt(k), Style: &stLabel}, {Text: v}}})
	}
	addKV("profile", rep.Profile)
	addKV("syntax", rep.Syntax)
	addKV("counts", fmt.Sprintf("%d %s, %d %s, %d %s (%d %s)", rep.Fatal, rt("fatal"), rep.Warning, rt("warning"),
		max(info, 0), rt("info"), len(rep.Findings), rt("total")))
	if rep.Duration > 0 {
		addKV("duration", rep.Duration.Round(time.Millisecond).String())
	}
	d.Table(kv)
	d.Space(10)

	if len(rep.Rulesets) > 0 {
		d.Paragraph(rt("rulesets"), stSub)
		rs := &layout.Table{Columns: []layout.Column{{Weight: 3}, {Weight: 1}}, Style: stSmall, HeaderStyle: stHead, HeaderFill: &colFill,
			Border: layout.BorderRows, BorderColor: colLine, Padding: 2,
			Header: []layout.Row{{Cells: []layout.Cell{{Text: rt("rulesets")}, {Text: rt("version")}}}}}
		for _, r := range rep.Rulesets {
			rs.Rows = append(rs.Rows, layout.Row{Cells: []layout.Cell{{Text: r.Name}, {Text: r.Version}}})
		}
		d.Table(rs)
		d.Space(10)
	}

	d.Paragraph(rt("counts"), stSub)
	if len(rep.Findings) == 0 {
		d.Paragraph(rt("none"), stValue)
	} else {
		ft := &layout.Table{
			Columns: []layout.Column{{Weight: 1.8}, {Weight: 0.9}, {Weight: 4}, {Weight: 3}},
			Header:  []layout.Row{{Cells: []layout.Cell{{Text: rt("rule")}, {Text: rt("flag")}, {Text: rt("message")}, {Text: rt("location")}}}},
			Style:   layout.Style{Size: 7.5}, HeaderStyle: stHead, HeaderFill: &colFill, Border: layout.BorderRows, BorderColor: colLine, Padding: 2,
		}
		for i, f := range rep.Findings {
			if i%512 == 511 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			flag := layout.Cell{Text: f.Flag}
			if f.Flag == "fatal" {
				flag.Style = &layout.Style{Size: 7.5, Font: layout.Bold, Color: colInvalid}
			}
			loc := f.Location
			if f.Line > 0 {
				loc += " (" + text(lang, "line") + " " + strconv.Itoa(f.Line) + ")"
			}
			ft.Rows = append(ft.Rows, layout.Row{Cells: []layout.Cell{{Text: f.RuleID}, flag, {Text: f.Message},
				{Text: loc, Style: &layout.Style{Size: 6.5, Font: layout.Mono}}}})
		}
		d.Table(ft)
	}
	return d.Bytes()
}
