// Command einvoice is the single binary of the service: the HTTP server and the
// command-line tools.
//
//	einvoice serve [flags]                     run the HTTP API
//	einvoice keys create --name NAME           issue an API key (printed alone on the last line)
//	einvoice keys list                         list keys
//	einvoice keys revoke ID                    revoke a key
//	einvoice validate --profile P FILE|DIR...  validate invoices (same verdict as the API)
//	einvoice --version                         print the build version
//
// The main package is thin: it turns flags and environment variables into
// configuration, opens the store, and hands over to package httpapi (server) or
// package httpapi/ops (CLI operations). Flags and file paths live only here.
// Exit codes: 0 success, 1 failure (or, for validate, an invalid document), 2
// usage error with a one-line message on stderr. See docs/CLI.md.
package main
