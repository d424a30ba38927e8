// Package verapdf is the client and supervisor of the veraPDF worker
// (tools/verapdf-worker): a long-lived JVM running veraPDF's greenfield
// validator, spoken to over stdin/stdout with one JSON line per request.
//
// The Client starts workers on demand (or in advance with Start), keeps at
// most Options.Workers of them, serialises requests per worker, bounds each
// file by Options.Timeout (a worker that does not answer in time is killed
// and replaced), and restarts a worker that exits. When no worker can be
// run (jar or Java missing, the JVM does not start, a worker dies in the
// middle of a request) the call fails with an *UnavailableError
// (errors.Is(err, ErrUnavailable)): callers answer 503 and never guess a
// verdict. A PDF veraPDF cannot parse, an encrypted PDF and a validation
// that runs out of time or memory are *DocumentError values: the input is
// the problem, not the validator.
//
// PDF/A verdicts in this project come from here and nowhere else.
package verapdf
