package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strings"
)

// The /docs page is rendered once, on the server, from the generated OpenAPI
// document: no JavaScript, no network access, works in any browser and in
// curl.

type docParam struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Description string `json:"description"`
	Schema      struct {
		Type    string   `json:"type"`
		Enum    []string `json:"enum"`
		Default any      `json:"default"`
	} `json:"schema"`
}

type docMedia struct {
	Schema json.RawMessage `json:"schema"`
}

type docOp struct {
	OperationID string             `json:"operationId"`
	Summary     string             `json:"summary"`
	Description string             `json:"description"`
	Tags        []string           `json:"tags"`
	Parameters  []docParam         `json:"parameters"`
	Security    []map[string][]any `json:"security"`
	RequestBody *struct {
		Content map[string]docMedia `json:"content"`
	} `json:"requestBody"`
	Responses map[string]struct {
		Description string              `json:"description"`
		Content     map[string]docMedia `json:"content"`
	} `json:"responses"`
}

type docView struct {
	Title, Version, Description string
	Groups                      []docGroup
	Schemas                     []docSchema
	Security                    []docSchema
}

type docGroup struct {
	Tag string
	Ops []docOpView
}

type docOpView struct {
	Method, Path string
	Op           docOp
	Protected    bool
	Request      []docSchemaRef
	Responses    []docSchemaRef
}

type docSchemaRef struct {
	Key, Media, Desc, Schema string
}

type docSchema struct {
	Name, Header, JSON string
}

var docsTemplate = template.Must(template.New("docs").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} {{.Version}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}
h2{border-bottom:2px solid #ccc;margin-top:2em}h3{margin-bottom:.2em}
code,pre{background:#f4f4f4;padding:.1em .3em}pre{padding:.6em;overflow:auto;font-size:.85em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
.m{font-weight:bold;color:#fff;background:#2a6;padding:.1em .4em;border-radius:3px}.GET{background:#26a}
.lock{color:#a40}nav a{margin-right:1em}
</style></head><body>
<h1>{{.Title}}</h1><p>Interface version <code>{{.Version}}</code>. {{.Description}}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<nav>{{range .Groups}}<a href="#tag-{{.Tag}}">{{.Tag}}</a>{{end}}<a href="#schemas">schemas</a></nav>
<h2>Authentication</h2><table><tr><th>scheme</th><th>header</th><th>use</th></tr>
{{range .Security}}<tr><td>{{.Name}}</td><td><code>{{.Header}}</code></td><td>{{.JSON}}</td></tr>{{end}}</table>
{{range .Groups}}<h2 id="tag-{{.Tag}}">{{.Tag}}</h2>
{{range .Ops}}<section id="{{.Op.OperationID}}"><h3><span class="m {{.Method}}">{{.Method}}</span> <code>{{.Path}}</code>{{if .Protected}} <span class="lock">(API key)</span>{{end}}</h3>
<p>{{.Op.Summary}}. {{.Op.Description}} Operation id <code>{{.Op.OperationID}}</code>.</p>
{{if .Op.Parameters}}<table><tr><th>query parameter</th><th>type</th><th>default</th><th>allowed</th><th>description</th></tr>
{{range .Op.Parameters}}<tr><td><code>{{.Name}}</code></td><td>{{.Schema.Type}}</td><td>{{if .Schema.Default}}{{.Schema.Default}}{{else}}{{if eq .Schema.Type "boolean"}}{{.Schema.Default}}{{end}}{{end}}</td><td>{{range $i, $e := .Schema.Enum}}{{if $i}}, {{end}}<code>{{$e}}</code>{{end}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
{{range .Request}}<p>Request body <code>{{.Media}}</code>: <code>{{.Schema}}</code></p>{{end}}
<table><tr><th>status</th><th>media type</th><th>body</th><th>meaning</th></tr>
{{range .Responses}}<tr><td>{{.Key}}</td><td>{{.Media}}</td><td><code>{{.Schema}}</code></td><td>{{.Desc}}</td></tr>{{end}}</table></section>
{{end}}{{end}}
<h2 id="schemas">Schemas</h2>
{{range .Schemas}}<h3 id="schema-{{.Name}}">{{.Name}}</h3><pre>{{.JSON}}</pre>{{end}}
</body></html>
`))

// renderDocs renders the HTML reference from an OpenAPI document.
func renderDocs(openapi []byte) ([]byte, error) {
	var doc struct {
		Info struct {
			Title, Version, Description string
		} `json:"info"`
		Paths      map[string]map[string]docOp `json:"paths"`
		Components struct {
			Schemas         map[string]json.RawMessage `json:"schemas"`
			SecuritySchemes map[string]struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"securitySchemes"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi, &doc); err != nil {
		return nil, fmt.Errorf("parse openapi: %w", err)
	}
	v := docView{Title: doc.Info.Title, Version: doc.Info.Version, Description: doc.Info.Description}
	groups := map[string]*docGroup{}
	var tags []string
	for path, item := range doc.Paths {
		for method, op := range item {
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			g := groups[tag]
			if g == nil {
				g = &docGroup{Tag: tag}
				groups[tag] = g
				tags = append(tags, tag)
			}
			ov := docOpView{Method: strings.ToUpper(method), Path: path, Op: op, Protected: len(op.Security) > 0}
			if op.RequestBody != nil {
				for mt, m := range op.RequestBody.Content {
					ov.Request = append(ov.Request, docSchemaRef{Media: mt, Schema: schemaLabel(m.Schema)})
				}
				sort.Slice(ov.Request, func(i, j int) bool { return ov.Request[i].Media < ov.Request[j].Media })
			}
			for code, resp := range op.Responses {
				for mt, m := range resp.Content {
					ov.Responses = append(ov.Responses, docSchemaRef{Key: code, Media: mt, Desc: resp.Description, Schema: schemaLabel(m.Schema)})
				}
			}
			sort.Slice(ov.Responses, func(i, j int) bool { return ov.Responses[i].Key < ov.Responses[j].Key })
			g.Ops = append(g.Ops, ov)
		}
	}
	sort.Strings(tags)
	for _, t := range tags {
		g := groups[t]
		sort.Slice(g.Ops, func(i, j int) bool {
			if g.Ops[i].Path != g.Ops[j].Path {
				return g.Ops[i].Path < g.Ops[j].Path
			}
			return g.Ops[i].Method < g.Ops[j].Method
		})
		v.Groups = append(v.Groups, *g)
	}
	for name, raw := range doc.Components.Schemas {
		var buf bytes.Buffer
		if err := json.Indent(&buf, raw, "", "  "); err != nil {
			return nil, fmt.Errorf("indent schema %s: %w", name, err)
		}
		v.Schemas = append(v.Schemas, docSchema{Name: name, JSON: buf.String()})
	}
	sort.Slice(v.Schemas, func(i, j int) bool { return v.Schemas[i].Name < v.Schemas[j].Name })
	for name, sc := range doc.Components.SecuritySchemes {
		v.Security = append(v.Security, docSchema{Name: name, Header: sc.Name, JSON: sc.Description})
	}
	sort.Slice(v.Security, func(i, j int) bool { return v.Security[i].Name < v.Security[j].Name })
	var out bytes.Buffer
	if err := docsTemplate.Execute(&out, v); err != nil {
		return nil, fmt.Errorf("render docs: %w", err)
	}
	return out.Bytes(), nil
}

// schemaLabel summarises a schema for the tables: a $ref's name, or its type.
func schemaLabel(raw json.RawMessage) string {
	var s struct {
		Ref    string `json:"$ref"`
		Type   string `json:"type"`
		Format string `json:"format"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "?"
	}
	if s.Ref != "" {
		return s.Ref[strings.LastIndex(s.Ref, "/")+1:]
	}
	if s.Format != "" {
		return s.Type + " (" + s.Format + ")"
	}
	if s.Type == "" {
		return "any"
	}
	return s.Type
}
