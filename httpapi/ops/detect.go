package ops

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrUnknownSyntax reports a document whose root element is neither a UBL
// Invoice/CreditNote nor a CII CrossIndustryInvoice.
var ErrUnknownSyntax = errors.New("unknown invoice syntax")

// rootElement returns the local name of the first element of an XML
// document, skipping the declaration, comments, processing instructions and a
// DOCTYPE. It reads only the prologue and never builds a tree.
func rootElement(doc []byte) (string, error) {
	i := 0
	for i < len(doc) {
		j := bytes.IndexByte(doc[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := doc[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<?")):
			k := bytes.Index(rest, []byte("?>"))
			if k < 0 {
				return "", errors.New("unterminated processing instruction")
			}
			i += k + 2
		case bytes.HasPrefix(rest, []byte("<!--")):
			k := bytes.Index(rest, []byte("-->"))
			if k < 0 {
				return "", errors.New("unterminated comment")
			}
			i += k + 3
		case bytes.HasPrefix(rest, []byte("<!")):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return "", errors.New("unterminated declaration")
			}
			i += k + 1
		default:
			end := 1
			for end < len(rest) && !bytes.ContainsRune([]byte(" \t\r\n/>"), rune(rest[end])) {
				end++
			}
			name := rest[1:end]
			if c := bytes.IndexByte(name, ':'); c >= 0 {
				name = name[c+1:]
			}
			if len(name) == 0 {
				return "", errors.New("empty element name")
			}
			return string(name), nil
		}
	}
	return "", errors.New("no root element")
}

// DetectSyntax tells UBL ("ubl": Invoice or CreditNote root) from CII ("cii":
// CrossIndustryInvoice root) by the root element's local name.
func DetectSyntax(doc []byte) (string, error) {
	root, err := rootElement(doc)
	if err != nil {
		return "", fmt.Errorf("ops.DetectSyntax: %w: %w", ErrUnknownSyntax, err)
	}
	switch root {
	case "Invoice", "CreditNote":
		return SyntaxUBL, nil
	case "CrossIndustryInvoice":
		return SyntaxCII, nil
	}
	return "", fmt.Errorf("ops.DetectSyntax: %w: root element %q", ErrUnknownSyntax, root)
}
