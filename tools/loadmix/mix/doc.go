// Package mix is the engine of the loadmix tool and of the reliability
// tests: it builds a mixed workload (validate/ubl, validate/cii, generate/ubl,
// convert/ubl-to-cii, render/html, extract/xml) from the official corpus
// (read at run time) and random invoices of formats/model, probes which
// operations a server answers (a 501 skips the operation), drives them at a
// fixed request rate (open loop: a request is sent on schedule whether or
// not the earlier ones have returned, and its latency is measured from its
// scheduled time, so a stalled server shows in the figures instead of
// slowing the client down), samples /metrics for the resident memory and the
// goroutine count, and judges a run: any 5xx, memory or goroutines growing
// beyond a bound after warm-up, or p99 drifting beyond a bound fails it.
//
// It owns no server code and talks to servers over HTTP only.
package mix
