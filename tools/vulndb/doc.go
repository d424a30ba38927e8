// Command vulndb builds a Go vulnerability database in the v1 layout that
// govulncheck reads with `-db file:///DIR`, from the OSV files of the
// golang.org/x/vulndb module as the Go module proxy serves it
// (data/osv/GO-*.json). It is a build/test tool of scripts/govulncheck.sh,
// never linked into the product: vuln.go.dev does not resolve where we build,
// the module proxy does.
//
//	go mod download -json golang.org/x/vulndb@V        # "Dir": the module directory
//	go run ./tools/vulndb -osv DIR/data/osv -version V -out ~/.cache/einvoice-vulndb/db-V
//
// (scripts/govulncheck.sh does this, checks the result with vulndb's
// cmd/checkdb and runs govulncheck; exit status 0, 1 on failure, 2 on usage.)
//
// It owns the layout (https://go.dev/security/vuln/database#api):
//
//	index/db.json       {"modified": newest entry modification}
//	index/modules.json  [{"path", "vulns": [{"id", "modified", "fixed"}]}], by path then id
//	index/vulns.json    [{"id", "modified", "aliases"}], by id
//	ID/<id>.json        each OSV entry, compact
//
// each also as <name>.json.gz, so that the directory is exactly what the
// vulndb validator (internal/database.Load) accepts and an HTTP server could
// serve it as is.
//
// Timestamps: the OSV files in the vulndb repository carry zero `modified`
// (and mostly zero `published`) times; vulndb's own generator fills them from
// the git history, which a module zip does not have. An entry's own non-zero
// times are kept; a zero `modified` becomes the snapshot time, the commit time
// encoded in the module's pseudo-version (-version), an upper bound of the
// real one; a zero `published` becomes the (resulting) `modified`. db.json's
// `modified` is the newest entry `modified`, hence the snapshot time for a
// proxy-served vulndb: how fresh the database is.
//
// The output is written to a temporary sibling directory and renamed into
// place, so a reader never sees a half-written database; -out must not exist.
package main
