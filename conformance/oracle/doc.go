// Package oracle drives the reference implementation the conformance tests
// compare our engine against: the official Schematron compiled to XSLT 2.0 by
// SchXslt 1.10 and run by Saxon-HE 9.9.1-5, in a long-running Java process
// (the Maven project in this directory, built into target/oracle.jar).
//
// It owns the Java project (pom.xml, src/main/java) and its Go client: Start
// builds the jar with Maven when it is missing or older than its sources,
// starts `java -jar oracle.jar serve --sch ...` once, and Validate sends
// documents as bytes over stdin (so mutated documents never touch the disk)
// and reads one JSON result line per document, in the shape of the expected
// results in ../shared/conformance/expected. Java is used only here, only by
// tests; nothing in the product imports this package.
//
// Wire protocol (stdin → stdout, one request at a time):
//
//	#bytes LEN NAME\n<LEN bytes>   →   {"file":NAME,"fired":[...],"error"?:...,"ms":...}\n
//
// A line without the "#bytes " prefix is a document path. After compiling
// every stage the process writes {"ready":true,"stages":[...]} once.
package oracle
