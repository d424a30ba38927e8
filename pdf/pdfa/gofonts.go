package pdfa

import (
	"fmt"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// FontSet is the fonts of a document's styles.
type FontSet struct {
	Regular, Bold, Italic, BoldItalic, Mono *Font
}

// GoFonts returns the Go fonts (golang.org/x/image/font/gofont: WGL4
// coverage, so Latin, Greek and Cyrillic), parsed and compressed once per
// process and shared read-only by every document.
func GoFonts() (*FontSet, error) { return goFonts() }

var goFonts = sync.OnceValues(func() (*FontSet, error) {
	var fs FontSet
	for _, f := range []struct {
		dst **Font
		ttf []byte
	}{{&fs.Regular, goregular.TTF}, {&fs.Bold, gobold.TTF}, {&fs.Italic, goitalic.TTF}, {&fs.BoldItalic, gobolditalic.TTF}, {&fs.Mono, gomono.TTF}} {
		p, err := ParseFont(f.ttf)
		if err != nil {
			return nil, fmt.Errorf("pdfa.GoFonts: %w", err)
		}
		*f.dst = p
	}
	return &fs, nil
})
