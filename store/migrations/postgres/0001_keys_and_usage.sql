-- API keys: only the SHA-256 (hex) of a key is stored, with a display prefix.
CREATE TABLE api_keys (
	id         text PRIMARY KEY,
	name       text NOT NULL,
	prefix     text NOT NULL,
	key_hash   text NOT NULL UNIQUE CHECK (length(key_hash) = 64),
	created_at timestamptz NOT NULL,
	revoked_at timestamptz
);

-- One counter per key, UTC day, operation and billable flag.
CREATE TABLE usage_counters (
	key_id    text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
	day       date NOT NULL,
	operation text NOT NULL CHECK (operation <> ''),
	billable  boolean NOT NULL,
	count     bigint NOT NULL CHECK (count > 0),
	PRIMARY KEY (key_id, day, operation, billable)
);
