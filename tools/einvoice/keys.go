package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/einvoice-dev/einvoice/store"
)

const keysUsage = `usage: einvoice keys <create|list|revoke> [flags]

  keys create --name NAME [--data-dir DIR]   issue a key; the key alone is the last line of stdout
  keys list [--data-dir DIR]                 list keys (id, name, prefix, created, revoked)
  keys revoke ID [--data-dir DIR]            revoke a key

DATABASE_URL (or --database-url) selects PostgreSQL instead of the SQLite file in --data-dir.
`

func cmdKeys(ctx context.Context, args []string, stdout io.Writer, getenv env) error {
	if len(args) == 0 {
		return usagef("keys: missing subcommand (create, list or revoke)")
	}
	sub := args[0]
	switch sub {
	case "--help", "-h", "-help", "help":
		fmt.Fprint(stdout, keysUsage)
		return errHelp
	case "create", "list", "revoke":
	default:
		return usagef("keys: unknown subcommand %q (create, list or revoke)", sub)
	}
	f := newFlags("keys "+sub, "einvoice keys "+sub+" [flags]", getenv)
	dataDir := f.String("data-dir", "EINVOICE_DATA_DIR", "./data", "directory of the SQLite key/usage database")
	dbURL := f.Secret("database-url", "DATABASE_URL", "PostgreSQL URL (postgres://...); overrides --data-dir")
	var name *string
	if sub == "create" {
		name = f.String("name", "", "", "name of the key's holder (required)")
	}
	pos, err := f.parse(args[1:], stdout)
	if err != nil {
		return err
	}
	switch {
	case sub == "create" && *name == "":
		return usagef("keys create: --name is required")
	case sub == "revoke" && len(pos) != 1:
		return usagef("keys revoke: want exactly one key ID")
	case sub != "revoke" && len(pos) > 0:
		return usagef("keys %s: unexpected argument %q", sub, pos[0])
	}
	st, err := store.Open(ctx, store.Config{DataDir: *dataDir, DatabaseURL: *dbURL})
	if err != nil {
		return fmt.Errorf("keys %s: %w", sub, err)
	}
	defer st.Close()
	switch sub {
	case "create":
		key, plaintext, err := st.CreateKey(ctx, *name)
		if err != nil {
			return fmt.Errorf("keys create: %w", err)
		}
		fmt.Fprintf(stdout, "id: %s\nname: %s\ncreated: %s\nThe key is shown only once; store it now:\n%s\n",
			key.ID, key.Name, key.CreatedAt.UTC().Format(time.RFC3339), plaintext)
	case "list":
		keys, err := st.ListKeys(ctx)
		if err != nil {
			return fmt.Errorf("keys list: %w", err)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPREFIX\tCREATED\tREVOKED")
		for _, k := range keys {
			revoked := "-"
			if k.RevokedAt != nil {
				revoked = k.RevokedAt.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Prefix, k.CreatedAt.UTC().Format(time.RFC3339), revoked)
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("keys list: %w", err)
		}
	case "revoke":
		if err := st.RevokeKey(ctx, pos[0]); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("keys revoke: no key with id %q", pos[0])
			}
			return fmt.Errorf("keys revoke: %w", err)
		}
		fmt.Fprintf(stdout, "revoked %s\n", pos[0])
	}
	return nil
}
