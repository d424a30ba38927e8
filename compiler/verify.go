package compiler

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/einvoice-dev/einvoice/engine"
	"github.com/einvoice-dev/einvoice/engine/vm"
)

// VerifyGenerated checks a generated tables file against the current
// sources under root: its header's sha256 stamp must match the sources and
// regenerating it (from the parameters recorded in t, which the file itself
// produced) must give identical bytes. pkg and fn are the package and method
// the file was generated for. The error says what is stale.
//
// fns are the extension functions the tables need (nil for none).
func VerifyGenerated(ctx context.Context, root, path, pkg, fn string, t *engine.Tables, fns *vm.Functions) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("verify %s: %w (run `make generate`)", path, err)
	}
	first, _ := bufio.NewReader(bytes.NewReader(data)).ReadString('\n')
	sha, err := HashSources(root, t.Source)
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	if want := GeneratedHeader(t.Source, sha); strings.TrimSpace(first) != want {
		return fmt.Errorf("verify %s: stale: header %q, sources give %q (run `make generate`)", path, strings.TrimSpace(first), want)
	}
	u, err := Compile(ctx, Config{Root: root, Main: t.Source, Name: t.Name, Version: t.Version, Syntax: t.Syntax,
		Phase: t.Phase, Package: pkg, Func: fn, Functions: fns, XSLFunctions: len(t.Functions) > 0}, "", nil)
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	if !bytes.Equal(u.Output, data) {
		return fmt.Errorf("verify %s: differs from what rulegen produces now (run `make generate`)", path)
	}
	return nil
}
