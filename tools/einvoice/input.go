package main

import (
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/ops"
)

// readInput reads one input file of the subcommand cmd; a file that cannot
// be read or is too large is a usage error naming it.
func readInput(cmd, file string) ([]byte, error) {
	b, err := readLimited(file)
	if err != nil {
		return nil, usagef("%s: %s: %v", cmd, file, err)
	}
	return b, nil
}

// serviceFor is newService for the subcommand cmd: a service that cannot
// be built (the rule sets under shared do not load) is said on stderr and
// is exit 2, as a usage error.
func serviceFor(cmd, shared string, stderr io.Writer) (*ops.Service, error) {
	svc, err := newService(shared)
	if err != nil {
		fmt.Fprintln(stderr, "einvoice: "+cmd+": "+err.Error())
		return nil, &exitError{code: exitUsage}
	}
	return svc, nil
}
