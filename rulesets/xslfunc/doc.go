// Package xslfunc holds Go implementations of the xsl:function definitions
// the official rule sets declare inside their .sch files, one file per
// function, registered in a vm.Functions registry under the function's
// expanded QName and arity. Each reproduces the XSLT 2.0 body exactly as
// Saxon evaluates it (XPath string positions in code points, number() giving
// NaN, integer mod with the sign of the dividend, the function conversion
// rules of typed params, casts that raise FORG0001), because the reference
// results come from running those bodies; they are tested against the
// official unit tests through package conformance.
//
// Groups: Peppol (namespace "utils", prefix u:) — used by Peppol BIS Billing
// 3.0.x; XRechnung — the same functions (merged in with the Peppol rules)
// plus u:decimalOrZero.
//
// Functions whose bodies are plain XPath (params, chained xsl:variables, one
// xsl:sequence: the BR-FR custom:* helpers) are not rewritten in Go:
// xsl_source.go reads them from the official .sch (ParseXSLFunctions, which
// the compiler calls to copy them into the generated tables for rulegen
// group "xsl") and compiles them with engine/xpath into a registry
// (CompileXSLFunctions): at load from the tables (FromTables), so a start
// does not parse the source again; FromSchematron reads a source directly
// (rulegen's check). The compiler imports this package, never the reverse:
// the compiler does not link into the server binary (tools/depcheck).
//
// This package has no generated code, so tools/rulegen can always import it.
package xslfunc
