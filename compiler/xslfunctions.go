package compiler

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
)

// ErrXSLFunction marks an xsl:function this package cannot compile
// (unsupported instruction or type).
var ErrXSLFunction = errors.New("unsupported xsl:function")

const (
	nsXSL        = "http://www.w3.org/1999/XSL/Transform"
	nsSchematron = "http://purl.oclc.org/dsdl/schematron"
)

// ParseXSLFunctions reads every xsl:function of a Schematron document
// (commented-out ones are not read) and the namespaces its expressions see:
// the root's xmlns declarations and the Schematron <ns> elements (which the
// skeleton turns into stylesheet namespaces).
func ParseXSLFunctions(data []byte) ([]engine.XSLFunction, map[string]string, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "utf-8") {
			return r, nil
		}
		return nil, fmt.Errorf("xsl:function: charset %s", label)
	}
	ns := map[string]string{}
	var out []engine.XSLFunction
	var cur *engine.XSLFunction
	depth, fnDepth := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("xsl:function: parse: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				for _, a := range t.Attr {
					if a.Name.Space == "xmlns" {
						ns[a.Name.Local] = a.Value
					}
				}
			}
			attr := func(n string) string {
				for _, a := range t.Attr {
					if a.Name.Space == "" && a.Name.Local == n {
						return a.Value
					}
				}
				return ""
			}
			line, _ := d.InputPos()
			if t.Name.Space == nsSchematron && t.Name.Local == "ns" && cur == nil {
				ns[attr("prefix")] = attr("uri")
				continue
			}
			if t.Name.Space == nsXSL && t.Name.Local == "function" && cur == nil {
				qn := attr("name")
				prefix, local, ok := strings.Cut(qn, ":")
				if !ok {
					return nil, nil, fmt.Errorf("%w: line %d: function name %q without prefix", ErrXSLFunction, line, qn)
				}
				space := ""
				for _, a := range t.Attr {
					if a.Name.Space == "xmlns" && a.Name.Local == prefix {
						space = a.Value
					}
				}
				if space == "" {
					space = ns[prefix]
				}
				if space == "" {
					return nil, nil, fmt.Errorf("%w: line %d: undeclared prefix %s", ErrXSLFunction, line, prefix)
				}
				cur = &engine.XSLFunction{Space: space, Local: local, As: attr("as"), Line: line}
				fnDepth = depth
				continue
			}
			if cur == nil {
				continue
			}
			if depth != fnDepth+1 || t.Name.Space != nsXSL {
				return nil, nil, fmt.Errorf("%w: line %d: %s in %s", ErrXSLFunction, line, t.Name.Local, cur.Local)
			}
			switch t.Name.Local {
			case "param":
				if len(cur.Vars) > 0 || cur.Result != "" || attr("select") != "" {
					return nil, nil, fmt.Errorf("%w: line %d: param after body or with default", ErrXSLFunction, line)
				}
				cur.Params = append(cur.Params, engine.XSLBinding{Name: attr("name"), As: attr("as")})
			case "variable":
				if attr("select") == "" || cur.Result != "" {
					return nil, nil, fmt.Errorf("%w: line %d: variable without select or after the result", ErrXSLFunction, line)
				}
				cur.Vars = append(cur.Vars, engine.XSLBinding{Name: attr("name"), As: attr("as"), Expr: attr("select")})
			case "sequence":
				if cur.Result != "" || attr("select") == "" {
					return nil, nil, fmt.Errorf("%w: line %d: second or empty xsl:sequence", ErrXSLFunction, line)
				}
				cur.Result = attr("select")
			default:
				return nil, nil, fmt.Errorf("%w: line %d: xsl:%s", ErrXSLFunction, line, t.Name.Local)
			}
		case xml.EndElement:
			if cur != nil && depth == fnDepth {
				if cur.Result == "" {
					return nil, nil, fmt.Errorf("%w: line %d: %s has no xsl:sequence", ErrXSLFunction, cur.Line, cur.Local)
				}
				out = append(out, *cur)
				cur = nil
			}
			depth--
		case xml.CharData:
			if cur != nil && strings.TrimSpace(string(t)) != "" {
				return nil, nil, fmt.Errorf("%w: text in %s", ErrXSLFunction, cur.Local)
			}
		}
	}
	return out, ns, nil
}
