// Package reliability holds the fault and scale-out tests of issue 9 (and
// the quick soak): they build the real einvoice binary, start it as child
// processes with their own data directories, PostgreSQL clusters
// (scripts/pgtest.sh), tmpfs mounts and a loopback nginx, drive load
// through HTTP (tools/loadmix/mix) and break things underneath: PostgreSQL
// stopped and restarted, the SQLite directory full or read-only, the
// veraPDF worker killed, one of two balanced instances stopped.
//
// The package has no non-test code and is imported by nothing. The tests
// need root (tmpfs mounts, runuser), PostgreSQL server binaries, Java with
// the veraPDF worker jar (make verapdf) and nginx; scripts/deps.sh installs
// the Debian packages. docs/RELIABILITY.md records the figures.
package reliability
