package xsd

import (
	"path/filepath"
	"testing"
)

func TestCatalogResolution(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"c/main.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog" xmlns:o="urn:other">
  <o:ignored foo="bar"/>
  <system systemId="http://ex/a.xsd" uri="a.xsd"/>
  <system systemId="http://ex/a.xsd" uri="second.xsd"/>
  <public publicId="-//EX//A" uri="pub.xsd"/>
  <rewriteSystem systemIdStartString="http://ex/" rewritePrefix="short/"/>
  <rewriteSystem systemIdStartString="http://ex/deep/" rewritePrefix="long/"/>
  <systemSuffix systemIdSuffix="/tail.xsd" uri="tail.xsd"/>
  <uri name="urn:x" uri="file:///abs/x.xsd"/>
  <rewriteURI uriStartString="urn:r:" rewritePrefix="/r/"/>
  <uriSuffix uriSuffix=":s" uri="s.xsd"/>
  <group xml:base="sub/">
    <system systemId="http://ex/g.xsd" uri="g.xsd"/>
  </group>
  <system systemId="http://ex/after-group.xsd" uri="ag.xsd"/>
  <nextCatalog catalog="next/next.xml"/>
</catalog>`,
		"c/next/next.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <system systemId="http://other/n.xsd" uri="n.xsd"/>
  <nextCatalog catalog="../main.xml"/>
</catalog>`,
	})
	set, err := loadCatalogs([]string{filepath.Join(dir, "c/main.xml")})
	if err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c")
	for _, tc := range []struct {
		name, id, pub string
		uri           bool
		want          string
		ok            bool
	}{
		{"exact system, first wins", "http://ex/a.xsd", "", false, c + "/a.xsd", true},
		{"longest rewrite prefix", "http://ex/deep/b.xsd", "", false, c + "/long/b.xsd", true},
		{"rewrite prefix", "http://ex/other/b.xsd", "", false, c + "/short/other/b.xsd", true},
		{"exact beats rewrite", "http://ex/g.xsd", "", false, c + "/sub/g.xsd", true},
		{"group base does not leak", "http://ex/after-group.xsd", "", false, c + "/ag.xsd", true},
		{"suffix", "http://nowhere/x/tail.xsd", "", false, c + "/tail.xsd", true},
		{"public id", "http://nowhere/p.xsd", "-//EX//A", false, c + "/pub.xsd", true},
		{"next catalog", "http://other/n.xsd", "", false, c + "/next/n.xsd", true},
		{"no match (cycle terminates)", "http://none/", "", false, "", false},
		{"uri exact, file URI", "urn:x", "", true, "/abs/x.xsd", true},
		{"rewrite uri", "urn:r:q.xsd", "", true, "/r/q.xsd", true},
		{"uri suffix", "urn:t:s", "", true, c + "/s.xsd", true},
		{"system entries do not answer uri lookups", "http://ex/a.xsd", "", true, "", false},
	} {
		var got string
		var ok bool
		if tc.uri {
			got, ok = set.resolveURI(tc.id)
		} else {
			got, ok = set.resolveSystem(tc.id, tc.pub)
		}
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: got %q %v, want %q %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if len(set.files) != 2 {
		t.Errorf("files read: %v, want main and next once each", set.files)
	}
}

func TestHasScheme(t *testing.T) {
	for s, want := range map[string]bool{
		"http://x": true, "file:/x": true, "urn:a:b": true, "svn+ssh://h": true,
		"/abs/path": false, "C:/x": false, "rel/a.xsd": false, "a b:c": false, "1a:b": false,
	} {
		if got := hasScheme(s); got != want {
			t.Errorf("hasScheme(%q) = %v, want %v", s, got, want)
		}
	}
}
