package dev.einvoice.oracle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.Source;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Rewrites Schematron rule contexts that use an XSLT 3.0 pattern, a parenthesised union as a
 * path step ({@code A[p]/(B | C)/D}), into the equivalent union of paths ({@code A[p]/B/D |
 * A[p]/C/D}), which XSLT 2.0 accepts. BR-FR UBL 1.4.0.03 has such contexts (BR-FR-MV-14 and
 * BR-FR-BD-14 variants); the expected results were produced the same way
 * ({@code shared/conformance/README.md}). Contexts without a parenthesised step after the first
 * are left as they are, so other rule sets compile from their file unchanged.
 */
final class ContextRewrite {
    private static final String SCH = "http://purl.oclc.org/dsdl/schematron";

    private ContextRewrite() {}

    /**
     * Returns the .sch as a Source: the file itself, or a rewritten DOM (system id = the file,
     * so relative references resolve as before) when a context needed the rewrite; count[0] is
     * set to the number of rewritten contexts.
     */
    static Source apply(Path sch, int[] count) throws IOException {
        String uri = sch.toUri().toString();
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            doc = f.newDocumentBuilder().parse(sch.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("read " + sch + ": " + e.getMessage(), e);
        }
        NodeList rules = doc.getElementsByTagNameNS(SCH, "rule");
        int n = 0;
        for (int i = 0; i < rules.getLength(); i++) {
            Element r = (Element) rules.item(i);
            if (!r.hasAttribute("context")) {
                continue;
            }
            String ctx = r.getAttribute("context");
            String out = rewrite(ctx);
            if (!out.equals(ctx)) {
                r.setAttribute("context", out);
                n++;
            }
        }
        count[0] = n;
        if (n == 0) {
            return new StreamSource(sch.toFile());
        }
        return new DOMSource(doc, uri);
    }

    /** The union of paths equivalent to a context, or the context when no step needs it. */
    static String rewrite(String ctx) {
        List<String> branches = split(ctx, '|');
        boolean needed = false;
        for (String b : branches) {
            List<String> steps = split(b.trim(), '/');
            for (int i = 1; i < steps.size(); i++) {
                if (steps.get(i).trim().startsWith("(")) {
                    needed = true;
                }
            }
        }
        if (!needed) {
            return ctx;
        }
        List<String> out = new ArrayList<>();
        for (String b : branches) {
            List<String> paths = new ArrayList<>();
            paths.add("");
            boolean first = true;
            for (String step : split(b.trim(), '/')) {
                List<String> alts = alternatives(step.trim());
                List<String> next = new ArrayList<>();
                for (String p : paths) {
                    for (String a : alts) {
                        next.add(first ? a : p + "/" + a);
                    }
                }
                paths = next;
                first = false;
            }
            out.addAll(paths);
        }
        return String.join(" | ", out);
    }

    /** A step "(X | Y)preds" → ["Xpreds", "Ypreds"] (recursively); any other step → [step]. */
    private static List<String> alternatives(String step) {
        List<String> one = new ArrayList<>();
        if (!step.startsWith("(")) {
            one.add(step);
            return one;
        }
        int close = matching(step, 0);
        if (close < 0) {
            one.add(step);
            return one;
        }
        String inner = step.substring(1, close);
        String preds = step.substring(close + 1);
        List<String> parts = split(inner, '|');
        if (parts.size() < 2) {
            one.add(step);
            return one;
        }
        List<String> out = new ArrayList<>();
        for (String p : parts) {
            for (String a : split(rewrite(p.trim()), '|')) {
                out.add(a.trim() + preds);
            }
        }
        return out;
    }

    /** Index of the parenthesis closing the one at open, or -1. */
    private static int matching(String s, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
                if (depth == 0) {
                    return c == ')' ? i : -1;
                }
            }
        }
        return -1;
    }

    /** Splits at sep outside brackets, parentheses and string literals. */
    static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            } else if (c == sep && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
