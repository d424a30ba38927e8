// Command vulnfixture is the module govulncheck scans in the tests of
// tools/vulndb: it calls golang.org/x/text/language.Parse (listed as
// vulnerable by the fixture entry GO-9999-0001) and imports, but never calls,
// language.NewMatcher (GO-9999-0003).
package main

import (
	"fmt"
	"os"

	"golang.org/x/text/language"
)

func main() {
	tag, err := language.Parse(os.Args[len(os.Args)-1])
	fmt.Println(tag, err)
}
