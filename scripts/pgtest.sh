#!/usr/bin/env bash
# pgtest.sh — a throw-away PostgreSQL cluster for the store tests.
#
#   scripts/pgtest.sh start DIR   install PostgreSQL if needed, initdb a cluster in DIR,
#                                 start it on a free 127.0.0.1 port, create database
#                                 einvoice_test and print its URL as the LAST stdout line.
#                                 Running it again on a running DIR just prints the URL.
#   scripts/pgtest.sh stop DIR    stop the cluster and remove DIR (no-op if DIR is absent).
#   scripts/pgtest.sh url DIR     print the URL of a running cluster.
#
# Typical use:
#   export EINVOICE_TEST_DATABASE_URL="$(scripts/pgtest.sh start /tmp/einvoice-pg | tail -n1)"
#   EINVOICE_REQUIRE_POSTGRES=1 go test ./store/...
#   scripts/pgtest.sh stop /tmp/einvoice-pg
#
# Everything but the URL goes to stderr. The cluster listens on 127.0.0.1 only, its
# unix socket lives in DIR, and the superuser "postgres" has a random password
# (scram-sha-256), so other local users cannot use it by accident. When run as root,
# the server runs as the "postgres" OS user (initdb refuses root) and DIR is chowned to it.
set -euo pipefail

DBNAME=einvoice_test
DBUSER=postgres
MARKER=.einvoice-pgtest

log() { printf 'pgtest: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
	echo "usage: $0 {start|stop|url} DIR" >&2
	exit 2
}

# find_bindir prints the directory holding initdb/pg_ctl, newest major version first.
find_bindir() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -V -r); do
		if [[ -x "$d/initdb" && -x "$d/pg_ctl" && -x "$d/postgres" ]]; then
			echo "$d"
			return 0
		fi
	done
	if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
		dirname "$(command -v initdb)"
		return 0
	fi
	return 1
}

ensure_bindir() {
	if BINDIR=$(find_bindir); then
		return 0
	fi
	[[ $(id -u) -eq 0 ]] || die "no PostgreSQL server binaries found and not root: install the 'postgresql' package"
	log "no PostgreSQL server binaries found; installing Debian's postgresql package"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update >&2
	apt-get install -y postgresql >&2
	BINDIR=$(find_bindir) || die "postgresql installed but no server binaries in /usr/lib/postgresql/*/bin"
}

# as_owner runs a command as the cluster owner: "postgres" when we are root, else ourselves.
as_owner() {
	if [[ $(id -u) -eq 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

free_port() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' && return 0
	fi
	local p
	for _ in $(seq 1 200); do
		p=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

url() {
	local dir=$1
	printf 'postgres://%s:%s@127.0.0.1:%s/%s?sslmode=disable\n' \
		"$DBUSER" "$(cat "$dir/password")" "$(cat "$dir/port")" "$DBNAME"
}

running() {
	local dir=$1
	[[ -f "$dir/port" && -d "$dir/data" ]] && as_owner "$BINDIR/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

create_db() {
	local dir=$1 port
	port=$(cat "$dir/port")
	local exists
	exists=$(PGPASSWORD=$(cat "$dir/password") "$BINDIR/psql" -h 127.0.0.1 -p "$port" -U "$DBUSER" -d postgres \
		-tAc "SELECT 1 FROM pg_database WHERE datname = '$DBNAME'")
	if [[ "$exists" != 1 ]]; then
		PGPASSWORD=$(cat "$dir/password") "$BINDIR/createdb" -h 127.0.0.1 -p "$port" -U "$DBUSER" "$DBNAME" >&2
	fi
}

start() {
	local dir=$1
	ensure_bindir
	if [[ -e "$dir" && ! -f "$dir/$MARKER" ]] && [[ -n "$(ls -A "$dir" 2>/dev/null)" ]]; then
		die "$dir exists, is not empty and was not made by this script"
	fi
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	touch "$dir/$MARKER"
	if [[ $(id -u) -eq 0 ]]; then
		chown -R postgres: "$dir"
		chmod 0700 "$dir"
		runuser -u postgres -- test -x "$dir" ||
			die "user postgres cannot reach $dir (a parent directory is not searchable); use e.g. /tmp/..."
	fi

	if running "$dir"; then
		log "cluster in $dir already running"
		create_db "$dir"
		url "$dir"
		return 0
	fi

	if [[ ! -f "$dir/data/PG_VERSION" ]]; then
		rm -rf "$dir/data"
		as_owner sh -c "umask 077; head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n' > '$dir/password'"
		as_owner "$BINDIR/initdb" -D "$dir/data" -U "$DBUSER" -E UTF8 --locale=C \
			--auth-local=scram-sha-256 --auth-host=scram-sha-256 --pwfile="$dir/password" >&2
	fi

	local attempt port
	for attempt in 1 2 3; do
		port=$(free_port) || die "no free port found"
		as_owner sh -c "echo $port > '$dir/port'"
		if as_owner "$BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
			-o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='$dir' -c fsync=off" start >&2; then
			create_db "$dir"
			log "$("$BINDIR/postgres" -V) running in $dir on port $port"
			url "$dir"
			return 0
		fi
		log "start attempt $attempt on port $port failed; see $dir/server.log"
	done
	tail -n 20 "$dir/server.log" >&2 || true
	die "could not start PostgreSQL"
}

stop() {
	local dir=$1
	if [[ ! -e "$dir" ]]; then
		log "$dir does not exist; nothing to stop"
		return 0
	fi
	[[ -f "$dir/$MARKER" ]] || die "$dir was not made by this script; refusing to remove it"
	if [[ -d "$dir/data" ]]; then
		BINDIR=$(find_bindir) || die "no PostgreSQL server binaries found"
		if as_owner "$BINDIR/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
			as_owner "$BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop >&2
		fi
	fi
	rm -rf "$dir"
	log "stopped and removed $dir"
}

[[ $# -eq 2 ]] || usage
case "$1" in
start) start "$2" ;;
stop) stop "$2" ;;
url)
	BINDIR=$(find_bindir) || die "no PostgreSQL server binaries found"
	running "$2" || die "no running cluster in $2"
	url "$(cd "$2" && pwd)"
	;;
*) usage ;;
esac
