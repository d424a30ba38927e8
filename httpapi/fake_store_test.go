package httpapi

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// fakeStore is an in-memory KeyStore for unit tests.
type fakeStore struct {
	mu      sync.Mutex
	keys    map[string]APIKey // plaintext -> key
	revoked map[string]bool   // plaintext -> revoked
	usage   map[wire.UsageRow]int64
	down    bool
	calls   []usageCall
}

type usageCall struct {
	keyID, op string
	billable  bool
}

func newFakeStore() *fakeStore {
	return &fakeStore{keys: map[string]APIKey{}, revoked: map[string]bool{}, usage: map[wire.UsageRow]int64{}}
}

func (f *fakeStore) add(plain, id, name string, revoked bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys[plain] = APIKey{ID: id, Name: name}
	f.revoked[plain] = revoked
}

func (f *fakeStore) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

func (f *fakeStore) Authenticate(_ context.Context, plain string) (APIKey, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return APIKey{}, ErrUnavailable
	}
	k, ok := f.keys[plain]
	if !ok {
		return APIKey{}, ErrUnknownKey
	}
	if f.revoked[plain] {
		return APIKey{}, ErrRevokedKey
	}
	return k, nil
}

func (f *fakeStore) RecordUsage(_ context.Context, keyID, op string, billable bool, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return ErrUnavailable
	}
	f.calls = append(f.calls, usageCall{keyID, op, billable})
	f.usage[wire.UsageRow{Day: keyID + "|" + at.Format("2006-01-02"), Operation: op, Billable: billable}]++
	return nil
}

func (f *fakeStore) Usage(_ context.Context, keyID string) ([]wire.UsageRow, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return nil, ErrUnavailable
	}
	var rows []wire.UsageRow
	prefix := keyID + "|"
	for r, n := range f.usage {
		if len(r.Day) > len(prefix) && r.Day[:len(prefix)] == prefix {
			r.Day = r.Day[len(prefix):]
			r.Count = n
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Operation < rows[j].Operation })
	return rows, nil
}

func (f *fakeStore) Ping(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return ErrUnavailable
	}
	return nil
}

func (f *fakeStore) usageCalls() []usageCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]usageCall(nil), f.calls...)
}
