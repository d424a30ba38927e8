// Package wire holds the JSON contract of the HTTP API: the validation Report and
// its Findings, the FastAPI/Pydantic-shaped HTTPValidationError, the plain
// ErrorDetail body, the health and usage documents, the JSON request bodies and
// one typed *Params struct per route.
//
// The types are plain data with struct tags; they carry no behaviour beyond
// small helpers. The OpenAPI document served at /openapi.json is generated from
// these types by reflection (package httpapi), so a change here is a change of the
// published contract and shows up in the OpenAPI golden test.
//
// Struct tags understood by the generator and the parameter parser:
//
//	json:"name,omitempty"  JSON name; omitempty marks a property as optional
//	query:"name"           query parameter name (Params structs only)
//	enum:"a,b,c"           allowed values of a string parameter or property
//	default:"x"            default value of a query parameter
//	doc:"text"             description in the OpenAPI document
//	required:"true"        a JSON body property that must be present
package wire
