-- API keys: only the SHA-256 (hex) of a key is stored, with a display prefix.
CREATE TABLE api_keys (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	prefix     TEXT NOT NULL,
	key_hash   TEXT NOT NULL UNIQUE CHECK (length(key_hash) = 64),
	created_at TEXT NOT NULL,
	revoked_at TEXT
) STRICT;

-- One counter per key, UTC day, operation and billable flag.
CREATE TABLE usage_counters (
	key_id    TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
	day       TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	operation TEXT NOT NULL CHECK (operation <> ''),
	billable  INTEGER NOT NULL CHECK (billable IN (0, 1)),
	count     INTEGER NOT NULL CHECK (count > 0),
	PRIMARY KEY (key_id, day, operation, billable)
) STRICT;
