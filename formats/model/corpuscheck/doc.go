// Package corpuscheck holds tests only: it checks formats/model's
// calculation against the official example invoices, read with the syntax
// readers (formats/ubl, formats/cii). It lives apart from formats/model so
// that the model's own tests do not depend on the readers' build state.
package corpuscheck
