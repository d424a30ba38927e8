package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/einvoice-dev/einvoice/internal/testshared"
)

func TestUsageErrors(t *testing.T) {
	t.Setenv("EINVOICE_KEY", "")
	for _, args := range [][]string{{}, {"-key", "k", "-rate", "0"}, {"-key", "k", "extra"}, {"-nope"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errb.String())
		}
	}
}

// A server implementing nothing: every operation is skipped and named.
func TestEverythingSkipped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotImplemented)
	}))
	defer srv.Close()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-url", srv.URL, "-key", "k", "-shared", testshared.Dir(t), "-duration", "1s"}, &out, &errb)
	if code != 2 || strings.Count(out.String(), "skipped ") != 6 || !strings.Contains(errb.String(), "no operation answers") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}
