package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi"
	"github.com/einvoice-dev/einvoice/httpapi/wire"
	"github.com/einvoice-dev/einvoice/store"
)

// keyStore adapts store.Store to httpapi.KeyStore, translating the store's
// sentinel errors into the HTTP layer's so that httpapi need not import store.
type keyStore struct{ st store.Store }

var _ httpapi.KeyStore = keyStore{}

func mapStoreErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrRevokedKey):
		return fmt.Errorf("%w: %w", httpapi.ErrRevokedKey, err)
	case errors.Is(err, store.ErrUnknownKey):
		return fmt.Errorf("%w: %w", httpapi.ErrUnknownKey, err)
	default: // ErrUnavailable and anything unexpected: 503, never 401
		return fmt.Errorf("%w: %w", httpapi.ErrUnavailable, err)
	}
}

func (k keyStore) Authenticate(ctx context.Context, plaintext string) (httpapi.APIKey, error) {
	key, err := k.st.Authenticate(ctx, plaintext)
	if err != nil {
		return httpapi.APIKey{}, mapStoreErr(err)
	}
	return httpapi.APIKey{ID: key.ID, Name: key.Name}, nil
}

func (k keyStore) RecordUsage(ctx context.Context, keyID, operation string, billable bool, at time.Time) error {
	return mapStoreErr(k.st.RecordUsage(ctx, keyID, operation, billable, at))
}

func (k keyStore) Usage(ctx context.Context, keyID string) ([]wire.UsageRow, error) {
	rows, err := k.st.Usage(ctx, keyID)
	if err != nil {
		return nil, mapStoreErr(err)
	}
	out := make([]wire.UsageRow, len(rows))
	for i, r := range rows {
		out[i] = wire.UsageRow{Day: r.Day, Operation: r.Operation, Billable: r.Billable, Count: r.Count}
	}
	return out, nil
}

func (k keyStore) Ping(ctx context.Context) error { return mapStoreErr(k.st.Ping(ctx)) }
