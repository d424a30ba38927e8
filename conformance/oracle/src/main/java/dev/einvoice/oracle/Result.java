package dev.einvoice.oracle;

import java.util.ArrayList;
import java.util.List;

/** The answer for one document: fired rules of every stage in order, or a document-level error. */
final class Result {
    final String file;
    final List<Finding> fired = new ArrayList<>();
    String error;
    double ms;

    Result(String file) {
        this.file = file;
    }

    String toJson() {
        StringBuilder b = new StringBuilder(256 + fired.size() * 200);
        b.append("{\"file\":").append(Json.quote(file)).append(",\"fired\":[");
        for (int i = 0; i < fired.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            fired.get(i).toJson(b);
        }
        b.append(']');
        if (error != null) {
            b.append(",\"error\":").append(Json.quote(error));
        }
        b.append(",\"ms\":").append(String.format(java.util.Locale.ROOT, "%.3f", ms));
        return b.append('}').toString();
    }
}
