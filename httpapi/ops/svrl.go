package ops

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/einvoice-dev/einvoice/httpapi/wire"
)

// WriteSVRL writes the findings of rep as an SVRL document (ISO Schematron
// Validation Report Language). Fatal and warning findings become
// svrl:failed-assert, information findings svrl:successful-report; XSD
// findings are included with the same shape so one document carries the full
// verdict.
func WriteSVRL(w io.Writer, rep *wire.Report) error {
	type text struct {
		Text string `xml:",chardata"`
	}
	type assertion struct {
		XMLName  xml.Name
		ID       string `xml:"id,attr"`
		Flag     string `xml:"flag,attr"`
		Location string `xml:"location,attr"`
		Test     string `xml:"test,attr"`
		Text     text   `xml:"svrl:text"`
	}
	type activePattern struct {
		XMLName  xml.Name `xml:"svrl:active-pattern"`
		Document string   `xml:"document,attr,omitempty"`
		Name     string   `xml:"name,attr"`
	}
	type output struct {
		XMLName  xml.Name `xml:"svrl:schematron-output"`
		NS       string   `xml:"xmlns:svrl,attr"`
		Title    string   `xml:"title,attr"`
		Patterns []activePattern
		Items    []assertion
	}
	out := output{NS: "http://purl.oclc.org/dsdl/svrl", Title: rep.Profile}
	for _, rs := range rep.Rulesets {
		out.Patterns = append(out.Patterns, activePattern{Name: rs.Name + " " + rs.Version})
	}
	for _, f := range rep.Findings {
		name := "svrl:failed-assert"
		if f.Flag == wire.FlagInformation {
			name = "svrl:successful-report"
		}
		out.Items = append(out.Items, assertion{
			XMLName: xml.Name{Local: name}, ID: f.RuleID, Flag: f.Flag,
			Location: f.Location, Test: f.Test, Text: text{f.Message},
		})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("ops.WriteSVRL: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("ops.WriteSVRL: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("ops.WriteSVRL: %w", err)
	}
	return nil
}
