package carry

import (
	"bytes"
	"fmt"

	"github.com/einvoice-dev/einvoice/formats/xmlio"
)

// WriteXML runs write on an xmlio.Writer indented by two spaces, as every
// national generator writes its document, and returns the document; the
// writer's error names format (e.g. "ksef: write: ...").
func WriteXML(format string, write func(w *xmlio.Writer)) ([]byte, error) {
	var buf bytes.Buffer
	w := xmlio.NewWriter(&buf, xmlio.Options{Indent: "  "})
	write(w)
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("%s: write: %w", format, err)
	}
	return buf.Bytes(), nil
}
