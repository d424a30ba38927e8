package httpapi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAPIDocMatchesRoutes keeps docs/API.md's route table and curl examples
// in step with the route table: every documented row is a route with the
// same operation id, auth and billing, and every route is documented.
func TestAPIDocMatchesRoutes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "API.md"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newTestServer(t, nil)
	routes := map[string]Route{}
	for _, rt := range s.Routes() {
		routes[rt.Method+" "+rt.Path] = rt
	}
	row := regexp.MustCompile(`(?m)^\| (GET|POST) \| (\S+) \| (\S+) \| (free|key) \| ?(yes)? ?\|`)
	documented := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		method, path, op, auth, billable := m[1], m[2], m[3], m[4], m[5] == "yes"
		if path == "/v1/convert/{source}-to-{target}" {
			for _, dir := range ConvertDirections() {
				documented["POST /v1/convert/"+dir] = true
			}
			continue
		}
		key := method + " " + path
		documented[key] = true
		rt, ok := routes[key]
		if !ok {
			t.Errorf("API.md documents %s, which is not a route", key)
			continue
		}
		if rt.OperationID != op || rt.Protected != (auth == "key") || rt.Billable != billable {
			t.Errorf("API.md row %s: op %s auth %s billable %v; route %+v", key, op, auth, billable, rt.OperationID)
		}
	}
	for key := range routes {
		if !documented[key] {
			t.Errorf("route %s is missing from docs/API.md", key)
		}
	}
	// Every curl example names an existing route.
	curl := regexp.MustCompile(`\$BASE(/[a-z0-9/._-]+)`)
	for _, m := range curl.FindAllStringSubmatch(string(b), -1) {
		found := false
		for key := range routes {
			if strings.HasSuffix(key, " "+m[1]) {
				found = true
			}
		}
		if !found {
			t.Errorf("API.md example uses %s, which is not a route", m[1])
		}
	}
}
