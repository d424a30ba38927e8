package wire

// Health is the body of GET /health. Status is "ok" when every required
// component is up and "degraded" otherwise; the HTTP status stays 200 so that
// liveness probes do not kill an instance whose database is briefly away.
type Health struct {
	Status     string       `json:"status" enum:"ok,degraded"`
	Version    string       `json:"version" doc:"Build version of the server binary."`
	Rulesets   []RulesetRef `json:"rulesets" doc:"Rule sets loaded by this instance."`
	Components Components   `json:"components"`
}

// Components reports the health of the service's dependencies.
type Components struct {
	Store   ComponentStatus `json:"store"`
	VeraPDF ComponentStatus `json:"verapdf"`
}

// ComponentStatus is the state of one dependency.
type ComponentStatus struct {
	Status string `json:"status" enum:"ok,unavailable,not_configured"`
	Detail string `json:"detail,omitempty"`
}

// Usage is the body of GET /v1/usage: the calling key's own counts.
type Usage struct {
	KeyID string     `json:"key_id"`
	Name  string     `json:"name"`
	Rows  []UsageRow `json:"usage" doc:"One row per day, operation and billable flag."`
}

// UsageRow counts the calls of one key to one operation on one UTC day.
type UsageRow struct {
	Day       string `json:"day" doc:"UTC day, YYYY-MM-DD."`
	Operation string `json:"operation" doc:"Operation id."`
	Billable  bool   `json:"billable"`
	Count     int64  `json:"count"`
}

// RulesetInfo describes one rule set of the catalog (GET /v1/rulesets),
// loaded or not.
type RulesetInfo struct {
	Name     string   `json:"name" doc:"e.g. Peppol BIS Billing"`
	Version  string   `json:"version"`
	Syntax   string   `json:"syntax" doc:"ubl, cii, or an Order-X / Factur-X flavour"`
	Source   string   `json:"source" doc:"Main .sch file relative to the official data directory."`
	SHA256   string   `json:"sha256" doc:"Digest of the .sch and every file it includes, stamped at generation."`
	Phase    string   `json:"phase"`
	Patterns int      `json:"patterns"`
	Rules    int      `json:"rules"`
	Asserts  int      `json:"asserts"`
	Reports  int      `json:"reports"`
	Profiles []string `json:"profiles" doc:"Profiles using it, as syntax/name version."`
	Error    string   `json:"error,omitempty" doc:"Why the rule set could not be loaded (its profiles then fail closed)."`
}
