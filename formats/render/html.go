package render

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strconv"

	"github.com/einvoice-dev/einvoice/formats/model"
)

//go:embed html.css
var htmlCSS string

// htmlTemplate lays a Document out as one self-contained page: inline CSS,
// no scripts, no external references. html/template escapes every value.
var htmlTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"css":   func() template.CSS { return template.CSS(htmlCSS) },
	"isnum": func(t *Table, i int) bool { return i < len(t.Cols) && t.Cols[i].Num },
	// rowclass is the class of a sub-line row (indented by its level,
	// deeper than maxCSSLevel like maxCSSLevel).
	"rowclass": func(t *Table, i int) string {
		if l := t.Level(i); l > 0 {
			return "sub" + strconv.Itoa(min(l, maxCSSLevel))
		}
		return ""
	},
}).Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="einvoice render">
<title>{{.Title}}</title>
<style>{{css}}</style>
</head>
<body>
<header class="doc"><h1>{{.Title}}</h1>{{if .Currency}}<p class="cur"><span class="bt">BT-5</span> {{.Currency}}</p>{{end}}</header>
<nav aria-label="{{.Nav}}"><ul>{{range .Sections}}{{if .Blocks}}<li><a href="#{{.ID}}">{{.Title}}</a></li>{{end}}{{end}}</ul></nav>
<main>
{{range .Sections}}{{if .Blocks}}<section id="{{.ID}}" class="sec" aria-labelledby="{{.ID}}-h">
<h2 id="{{.ID}}-h">{{.Title}}</h2>
<div class="grid">
{{range .Blocks}}{{template "block" .}}{{end}}</div>
</section>
{{end}}{{end}}</main>
</body>
</html>
{{define "block"}}<section class="block{{if .Tables}} wide{{end}}">
<h3>{{.Title}}{{with .Badge}} <span class="bt">{{.}}</span>{{end}}</h3>
{{template "content" .}}</section>
{{end}}
{{define "sub"}}<section class="sub{{if .Level}} subline{{end}}">
<h4>{{.Title}}{{with .Badge}} <span class="bt">{{.}}</span>{{end}}</h4>
{{template "content" .}}</section>
{{end}}
{{define "content"}}{{if .Fields}}<table class="kv"><caption>{{.Title}}</caption><tbody>
{{range .Fields}}<tr><th scope="row">{{.Label}}{{if .BT}} <span class="bt">{{.BT}}</span>{{end}}</th><td dir="auto"{{if .Num}} class="num"{{end}}>{{.Value}}</td></tr>
{{end}}</tbody></table>
{{end}}{{range .Tables}}{{template "table" .}}{{end}}{{range .Blocks}}{{template "sub" .}}{{end}}{{end}}
{{define "table"}}{{$t := .}}<div class="scroll"><table class="list"><caption>{{.Caption}}</caption>
<thead><tr>{{range .Cols}}<th scope="col"{{if .Num}} class="num"{{end}}>{{.Label}}{{if .BT}} <span class="bt">{{.BT}}</span>{{end}}</th>{{end}}</tr></thead>
<tbody>
{{range $r, $row := .Rows}}<tr{{with rowclass $t $r}} class="{{.}}"{{end}}>{{range $i, $v := $row}}<td dir="auto"{{if isnum $t $i}} class="num"{{end}}>{{$v}}</td>{{end}}</tr>
{{end}}</tbody></table></div>
{{end}}`))

// maxCSSLevel is the deepest sub-line level html.css indents further.
const maxCSSLevel = 4

// WriteHTML writes doc as a self-contained HTML page.
func WriteHTML(w io.Writer, doc *Document) error {
	if err := htmlTemplate.Execute(w, doc); err != nil {
		return fmt.Errorf("render.WriteHTML: %w", err)
	}
	return nil
}

// HTML renders inv as a self-contained HTML page in lang.
func HTML(ctx context.Context, inv *model.Invoice, lang Lang) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("render.HTML: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(16 << 10)
	if err := WriteHTML(ctxWriter{ctx, &buf}, Build(inv, lang)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ctxWriter stops a long template execution once ctx is done: the
// template's next write fails with ctx's error.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
