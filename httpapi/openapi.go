package httpapi

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// OpenAPIVersion is the interface version carried by the OpenAPI document.
const OpenAPIVersion = "0.1.0"

var (
	objectType = reflect.TypeOf(wire.Object(nil))
	timeType   = reflect.TypeOf(time.Time{})
)

// schemaGen turns Go types into JSON Schema (OpenAPI 3.1 dialect), collecting
// named structs under components/schemas.
type schemaGen struct {
	components map[string]any
}

func (g *schemaGen) ref(v any) map[string]any {
	return g.schema(reflect.TypeOf(v), "")
}

// schema returns the schema of t; tag is the struct tag of the field holding
// it (for enum and doc), or "".
func (g *schemaGen) schema(t reflect.Type, tag reflect.StructTag) map[string]any {
	var s map[string]any
	switch {
	case t == objectType:
		s = map[string]any{"type": "object", "additionalProperties": true}
	case t == binaryType:
		s = map[string]any{"type": "string", "format": "binary"}
	case t == timeType:
		s = map[string]any{"type": "string", "format": "date-time"}
	default:
		switch t.Kind() {
		case reflect.Pointer:
			return g.schema(t.Elem(), tag)
		case reflect.Struct:
			s = map[string]any{"$ref": "#/components/schemas/" + g.component(t)}
		case reflect.Map:
			s = map[string]any{"type": "object"}
			if t.Elem().Kind() != reflect.Interface {
				s["additionalProperties"] = g.schema(t.Elem(), "")
			}
		case reflect.Slice, reflect.Array:
			items := g.schema(t.Elem(), "")
			if t.Elem().Kind() == reflect.Interface {
				items = map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
			}
			s = map[string]any{"type": "array", "items": items}
		case reflect.String:
			s = map[string]any{"type": "string"}
		case reflect.Bool:
			s = map[string]any{"type": "boolean"}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			s = map[string]any{"type": "integer"}
		case reflect.Float32, reflect.Float64:
			s = map[string]any{"type": "number"}
		default: // interface: any JSON value
			s = map[string]any{}
		}
	}
	if e := tag.Get("enum"); e != "" {
		if _, isRef := s["$ref"]; !isRef {
			s["enum"] = strings.Split(e, ",")
		}
	}
	if d := tag.Get("doc"); d != "" {
		// OpenAPI 3.1 (JSON Schema 2020-12) allows keywords beside $ref, so a
		// described reference stays a plain $ref: the allOf wrapper of 3.0
		// made schema-driven generators (schemathesis) give up on the type.
		s["description"] = d
	}
	return s
}

// component registers struct t under its Go name and returns the name.
func (g *schemaGen) component(t reflect.Type) string {
	name := t.Name()
	if _, done := g.components[name]; done {
		return name
	}
	g.components[name] = map[string]any{} // placeholder for recursive types
	props := map[string]any{}
	required := []string{}
	for i := range t.NumField() {
		f := t.Field(i)
		jn, req, skip := jsonField(f)
		if skip {
			continue
		}
		props[jn] = g.schema(f.Type, f.Tag)
		if req {
			required = append(required, jn)
		}
	}
	c := map[string]any{"type": "object", "title": name, "properties": props}
	if len(required) > 0 {
		c["required"] = required
	}
	g.components[name] = c
	return name
}

// buildOpenAPI generates the OpenAPI 3.1 document from the route table and
// the wire types. The document describes the interface, not one deployment:
// it does not depend on which capabilities have landed or on configuration.
func (s *Server) buildOpenAPI() map[string]any {
	g := &schemaGen{components: map[string]any{}}
	errRef := g.ref(wire.ErrorDetail{})
	valRef := g.ref(wire.HTTPValidationError{})
	errResp := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": map[string]any{mediaJSON: map[string]any{"schema": errRef}}}
	}
	paths := map[string]any{}
	for _, rt := range s.routes {
		op := map[string]any{
			"operationId": rt.OperationID,
			"summary":     rt.Summary,
			"tags":        []string{rt.Tag},
		}
		desc := "Free: no API key needed."
		if rt.Protected {
			desc = "Requires an API key in x-api-key (and x-gateway-proxy-secret when the deployment sets a gateway secret). Metered per key, operation and day."
			if rt.Billable {
				desc += " Billable."
			}
			op["security"] = []any{map[string]any{"APIKeyHeader": []string{}}}
			op["x-billable"] = rt.Billable
		}
		op["description"] = desc
		if params := s.openAPIParams(rt); len(params) > 0 {
			op["parameters"] = params
		}
		if rt.RequestTypes != nil {
			content := map[string]any{}
			for _, mt := range rt.RequestTypes {
				content[mt] = map[string]any{"schema": g.bodySchema(mt, rt.RequestBody)}
			}
			op["requestBody"] = map[string]any{"required": true, "content": content}
		}
		responses := map[string]any{
			"200": map[string]any{"description": "Success.", "content": map[string]any{
				strings.Split(rt.ResponseType, ";")[0]: map[string]any{"schema": g.bodySchema(rt.ResponseType, rt.Response)}}},
		}
		hasInput := rt.RequestTypes != nil || len(rt.params.fields) > 0
		if hasInput && !rt.No422 {
			responses["422"] = map[string]any{"description": "Validation Error", "content": map[string]any{mediaJSON: map[string]any{"schema": valRef}}}
		}
		if rt.RequestTypes != nil {
			responses["413"] = errResp("Request body larger than the configured limit.")
			responses["415"] = errResp("Unsupported request media type.")
		}
		if rt.Protected {
			responses["401"] = errResp("Missing, unknown or revoked API key.")
			responses["403"] = errResp("Missing or wrong gateway secret (when configured).")
			responses["429"] = errResp("Per-key rate limit exceeded; see Retry-After.")
		}
		if rt.Capability != "" {
			responses["501"] = errResp("The capability behind this operation has not landed in this build.")
		}
		if rt.Protected || rt.RequestTypes != nil {
			responses["503"] = errResp("Time limit exceeded or a dependency (key store) unavailable.")
		}
		op["responses"] = responses
		item, _ := paths[rt.Path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[rt.Path] = item
		}
		item[strings.ToLower(rt.Method)] = op
	}
	embedModelSchemas(g.components)
	// Schemas every client needs even when no route returns them directly.
	g.ref(wire.Report{})
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "einvoice: EN 16931 e-invoicing API",
			"version":     OpenAPIVersion,
			"description": "Generate, validate, convert, render, extract and embed EN 16931 electronic invoices. Errors: 422 bodies are HTTPValidationError; every other error body is ErrorDetail.",
		},
		"paths": paths,
		"components": map[string]any{
			"schemas": g.components,
			"securitySchemes": map[string]any{
				"APIKeyHeader": map[string]any{"type": "apiKey", "in": "header", "name": "x-api-key",
					"description": "API key issued with `einvoice keys create` (ek_live_ + 32 base62 characters)."},
				"GatewaySecret": map[string]any{"type": "apiKey", "in": "header", "name": "x-gateway-proxy-secret",
					"description": "Secret set by an upstream API gateway; required on protected operations when the deployment configures one (EINVOICE_GATEWAY_SECRET)."},
			},
		},
	}
}

// bodySchema is the schema of a request or response body of media type mt.
func (g *schemaGen) bodySchema(mt string, body any) map[string]any {
	mt = strings.Split(mt, ";")[0]
	switch {
	case body != nil && (mt == mediaJSON || mt == mediaMultipart):
		return g.ref(body)
	case mt == mediaJSON:
		return map[string]any{"type": "object"}
	case mt == mediaPDF:
		return map[string]any{"type": "string", "format": "binary"}
	default:
		return map[string]any{"type": "string"}
	}
}

func (s *Server) openAPIParams(rt *Route) []any {
	var out []any
	for _, f := range rt.params.fields {
		sch := map[string]any{}
		switch f.kind {
		case reflect.Bool:
			sch["type"] = "boolean"
			if f.def != "" {
				b, _ := strconv.ParseBool(f.def)
				sch["default"] = b
			}
		default:
			sch["type"] = "string"
			if f.enum != nil {
				sch["enum"] = f.enum
			}
			if f.def != "" {
				sch["default"] = f.def
			}
		}
		p := map[string]any{"name": f.name, "in": "query", "required": false, "schema": sch}
		if f.doc != "" {
			p["description"] = f.doc
		}
		out = append(out, p)
	}
	return out
}
