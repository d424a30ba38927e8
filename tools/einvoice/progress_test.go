package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressOnlyOnTerminals(t *testing.T) {
	var buf bytes.Buffer
	if p := newProgress(&buf, 10); p != nil {
		t.Fatal("progress bar on a non-terminal writer")
	}
	var nilP *progress
	nilP.fileDone() // no-ops on nil
	nilP.finish()
}

func TestProgressDrawsAndErases(t *testing.T) {
	var buf syncBuffer
	p := startProgress(&buf, 4, time.Millisecond)
	p.fileDone()
	p.fileDone()
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(buf.String(), "2/4 files") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	p.finish()
	out := buf.String()
	if !strings.Contains(out, "\r[###############...............] 2/4 files") {
		t.Fatalf("bar not drawn at 2/4: %q", out)
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Fatalf("bar not erased at the end: %q", out)
	}
}
