package main

import (
	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// newService builds the operations with every capability that has landed.
// Validation needs the engine-backed validator; until it is wired the
// service runs without one and validate operations report 501 (API) or an
// error (CLI). sharedDir locates the official rule sets and schemas.
func newService(sharedDir string) (*ops.Service, error) {
	_ = sharedDir
	return &ops.Service{}, nil
}
