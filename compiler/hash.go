package compiler

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
)

// SourceHash is the sha256 stamped into generated tables: over each source
// file (main file first, then includes in load order) as its slash path,
// a NUL byte, its length and its bytes, so that renaming, reordering or
// editing any file changes the stamp.
func SourceHash(files []string, data [][]byte) string {
	h := sha256.New()
	for i, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data[i]))
		h.Write(data[i])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// HashSources recomputes the stamp of the tables built from root/main
// without compiling: it loads main and resolves its includes.
func HashSources(root, main string) (string, error) {
	u := &Unit{Config: Config{Root: root, Main: main}}
	r, err := u.loadFile(main)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", filepath.Join(root, main), err)
	}
	u.Root = r
	if err := u.resolveIncludes(r, []string{u.Files[0]}); err != nil {
		return "", fmt.Errorf("hash %s: %w", main, err)
	}
	return SourceHash(u.Files, u.Data), nil
}
