package main

import (
	"fmt"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
	"github.com/einvoice-dev/einvoice/httpapi/ops/engineval"
)

// newService builds the operations with every capability that has landed.
// Validation needs the engine-backed validator, which loads the generated
// rule tables and the official schemas under sharedDir; when that fails the
// service is returned without a validator (validate operations answer 501,
// the CLI reports an error) together with the reason.
func newService(sharedDir string) (*ops.Service, error) {
	v, err := engineval.New(sharedDir)
	if err != nil {
		return &ops.Service{}, fmt.Errorf("validation engine not available: %w", err)
	}
	return &ops.Service{Validator: v}, nil
}
