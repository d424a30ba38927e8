package engineval

import (
	"context"
	"fmt"
	"time"

	"github.com/einvoice-dev/einvoice/engine/xmltree"
	"github.com/einvoice-dev/einvoice/engine/xsd"
	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/rulesets"
)

// ValidateSchema implements ops.SchemaValidator: body against the XSD-only
// format name of rulesets.Schemas() ("facturae", "ksef_fa", "fatturapa"),
// compiled on first use (once, shared with every later call), with the
// findings of validate/facturapa (rule_id XSD, document order).
func (v *Validator) ValidateSchema(ctx context.Context, name string, body []byte) (*wire.Report, error) {
	start := time.Now()
	var def *rulesets.SchemaDef
	for _, d := range rulesets.Schemas() {
		if d.Name == name {
			def = &d
		}
	}
	if def == nil {
		return nil, fmt.Errorf("engineval: no schema %q in the catalog", name)
	}
	if _, err := xmltree.Parse(body, v.limits); err != nil {
		return nil, xmlError(err)
	}
	schema, err := v.schema(def.Path, xsd.Options{CatalogFiles: []string{v.abs(def.Catalog)}, Root: v.abs(def.Dir)})
	if err != nil {
		return nil, err
	}
	fs, err := xsdFindings(ctx, schema, body)
	if err != nil {
		return nil, err
	}
	rep := &wire.Report{Profile: name, Syntax: name, Complete: true, Findings: fs,
		Rulesets: []wire.RulesetRef{{Name: name + " XSD", Version: def.Version}}}
	rep.DurationMS = time.Since(start).Milliseconds()
	rep.Recount()
	return rep, nil
}

var _ ops.SchemaValidator = (*Validator)(nil)
