package dev.einvoice.verapdf;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

import org.verapdf.core.EncryptedPdfException;
import org.verapdf.gf.foundry.VeraGreenfieldFoundryProvider;
import org.verapdf.pdfa.Foundries;
import org.verapdf.pdfa.PDFAParser;
import org.verapdf.pdfa.PDFAValidator;
import org.verapdf.pdfa.flavours.PDFAFlavour;
import org.verapdf.pdfa.results.ValidationResult;
import org.verapdf.pdfa.validation.profiles.Rule;
import org.verapdf.pdfa.validation.profiles.RuleId;
import org.verapdf.pdfa.validation.profiles.ValidationProfile;
import org.verapdf.processor.reports.enums.JobEndStatus;

/**
 * A long-lived veraPDF validation worker.
 *
 * <p>Protocol: one JSON object per line on stdin, one JSON object per line on stdout, in order.
 * Requests: {@code {"id":1,"op":"validate","path":"/tmp/x.pdf","flavour":"3b"|"auto"}} and
 * {@code {"id":2,"op":"ping"}}. Every request gets exactly one answer carrying its id; a PDF
 * veraPDF cannot parse is an answer with {@code error.kind="parse"}, never a crash. The first
 * line written is a ready line ({@code "ready":true}) once veraPDF is initialised.
 *
 * <p>A validation that runs past the time limit (argument {@code --timeout-ms}, default 60000)
 * is cancelled and answered with {@code error.kind="timeout"}; if it does not stop within a
 * grace period the worker exits so the supervisor starts a fresh one. Out of memory is answered
 * and followed by an exit for the same reason.
 */
public final class Worker {
    private static final String NAME = "veraPDF";
    /** The flavour checked when "auto" finds no PDF/A claim in the file: our product's target. */
    private static final PDFAFlavour AUTO_FALLBACK = PDFAFlavour.PDFA_3_B;
    private static final long GRACE_MS = 3000;
    /** EINVOICE_VERAPDF_DEBUG=1 prints the stack trace of every failure to stderr. */
    private static final boolean DEBUG = "1".equals(System.getenv("EINVOICE_VERAPDF_DEBUG"));

    private final Writer out;
    private final String version;
    private final long timeoutMs;
    private final ExecutorService exec = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "verapdf-validate");
        t.setDaemon(true);
        return t;
    });

    private Worker(Writer out, String version, long timeoutMs) {
        this.out = out;
        this.version = version;
        this.timeoutMs = timeoutMs;
    }

    public static void main(String[] args) throws IOException {
        long timeoutMs = 60000;
        for (int i = 0; i < args.length; i++) {
            if ("--timeout-ms".equals(args[i]) && i + 1 < args.length) {
                timeoutMs = Long.parseLong(args[++i]);
            }
        }
        // The protocol owns stdout; anything a library prints goes to stderr.
        PrintStream protocol = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), false,
                StandardCharsets.UTF_8);
        System.setOut(System.err);
        LogManager.getLogManager().reset();
        Logger.getLogger("").setLevel(Level.OFF);

        VeraGreenfieldFoundryProvider.initialise();
        Writer w = new OutputStreamWriter(protocol, StandardCharsets.UTF_8);
        Worker worker = new Worker(w, libraryVersion(), timeoutMs);
        worker.send("{\"ready\":true," + worker.validatorJSON() + "}");

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            worker.handle(line);
        }
        System.exit(0);
    }

    private static String libraryVersion() {
        for (String res : new String[] {"org/verapdf/release/validation-model.properties",
                "org/verapdf/release/library.properties"}) {
            try (InputStream is = Worker.class.getClassLoader().getResourceAsStream(res)) {
                if (is == null) {
                    continue;
                }
                Properties p = new Properties();
                p.load(is);
                String v = p.getProperty("verapdf.release.version");
                if (v != null && !v.isBlank()) {
                    return v.trim();
                }
            } catch (IOException e) {
                // try the next resource
            }
        }
        return "unknown";
    }

    private String validatorJSON() {
        return "\"validator\":{\"name\":" + Json.quote(NAME) + ",\"version\":" + Json.quote(version) + "}";
    }

    private void send(String json) throws IOException {
        out.write(json);
        out.write('\n');
        out.flush();
    }

    private void handle(String line) throws IOException {
        Map<String, Object> req;
        try {
            req = Json.parseFlatObject(line);
        } catch (IllegalArgumentException e) {
            send("{\"id\":null," + errorJSON("bad_request", "request is not a JSON object: " + e.getMessage()) + "}");
            return;
        }
        String id = Json.raw(req.get("id"));
        String op = req.get("op") instanceof String s ? s : "validate";
        if ("ping".equals(op)) {
            send("{\"id\":" + id + ",\"ok\":true," + validatorJSON() + "}");
            return;
        }
        if ("warm".equals(op)) {
            send("{\"id\":" + id + "," + warm() + "}");
            return;
        }
        if (!"validate".equals(op)) {
            send("{\"id\":" + id + "," + errorJSON("bad_request", "unknown op " + op) + "}");
            return;
        }
        String path = req.get("path") instanceof String s ? s : null;
        String flavourArg = req.get("flavour") instanceof String s ? s : "auto";
        if (path == null || path.isEmpty()) {
            send("{\"id\":" + id + "," + errorJSON("bad_request", "path is required") + "}");
            return;
        }
        PDFAFlavour requested = null;
        if (!"auto".equalsIgnoreCase(flavourArg) && !flavourArg.isEmpty()) {
            requested = PDFAFlavour.byFlavourId(flavourArg.toLowerCase());
            if (requested == null || requested == PDFAFlavour.NO_FLAVOUR) {
                send("{\"id\":" + id + "," + errorJSON("bad_request", "unknown flavour " + flavourArg) + "}");
                return;
            }
        }
        File file = new File(path);
        if (!file.isFile()) {
            send("{\"id\":" + id + "," + errorJSON("io", "no such file: " + path) + "}");
            return;
        }
        final PDFAFlavour req0 = requested;
        final PDFAValidator[] running = new PDFAValidator[1];
        final CountDownLatch finished = new CountDownLatch(1);
        Future<String> f = exec.submit(() -> {
            try {
                return validate(file, req0, running);
            } finally {
                finished.countDown();
            }
        });
        String body;
        boolean fatal = false;
        try {
            body = f.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            PDFAValidator v;
            synchronized (running) {
                v = running[0];
            }
            if (v != null) {
                v.cancelValidation(JobEndStatus.TIMEOUT);
            }
            f.cancel(true);
            body = errorJSON("timeout", "validation did not finish within " + timeoutMs + " ms");
            try {
                // A cancelled Future reports done at once: wait for the task itself.
                fatal = !finished.await(GRACE_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                fatal = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            body = errorJSON("internal", "interrupted");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof OutOfMemoryError) {
                fatal = true;
                body = errorJSON("resource", "out of memory while validating");
            } else {
                body = errorJSON("internal", describe(c));
            }
        }
        // "restarting": this process is about to exit; the supervisor replaces it.
        send("{\"id\":" + id + "," + body + (fatal ? ",\"restarting\":true" : "") + "}");
        if (fatal) {
            // A validation that cannot be stopped (or a JVM out of memory) poisons this process:
            // exit so the supervisor starts a clean one.
            System.exit(3);
        }
    }

    /**
     * Validates a small generated PDF (text in a base-14 font) so that the classes, the
     * validation profile and the JIT are ready before the first real file: the first
     * validation of a fresh JVM costs seconds of CPU.
     */
    private String warm() {
        File tmp = null;
        try {
            tmp = File.createTempFile("verapdf-warm-", ".pdf");
            java.nio.file.Files.write(tmp.toPath(), warmPDF());
            String body = validate(tmp, PDFAFlavour.PDFA_3_B, new PDFAValidator[1]);
            boolean ok = body.startsWith("\"compliant\"");
            return "\"ok\":" + ok + (ok ? "," + validatorJSON() : "," + body);
        } catch (IOException e) {
            return errorJSON("io", describe(e));
        } finally {
            if (tmp != null && !tmp.delete()) {
                tmp.deleteOnExit();
            }
        }
    }

    /** A one-page PDF 1.7 with a line of Helvetica text, xref offsets computed. */
    static byte[] warmPDF() {
        String content = "BT /F1 12 Tf 72 720 Td (warm-up) Tj ET";
        String[] objs = {
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Length " + content.length() + " >>\nstream\n" + content + "\nendstream",
        };
        StringBuilder sb = new StringBuilder("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n");
        int[] offsets = new int[objs.length];
        for (int i = 0; i < objs.length; i++) {
            offsets[i] = sb.toString().getBytes(StandardCharsets.ISO_8859_1).length;
            sb.append(i + 1).append(" 0 obj\n").append(objs[i]).append("\nendobj\n");
        }
        int xref = sb.toString().getBytes(StandardCharsets.ISO_8859_1).length;
        sb.append("xref\n0 ").append(objs.length + 1).append("\n0000000000 65535 f \n");
        for (int off : offsets) {
            sb.append(String.format("%010d 00000 n \n", off));
        }
        sb.append("trailer\n<< /Size ").append(objs.length + 1).append(" /Root 1 0 R >>\nstartxref\n")
                .append(xref).append("\n%%EOF\n");
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Validates one file; a file veraPDF cannot read is an error answer, never an exception. */
    private String validate(File file, PDFAFlavour requested, PDFAValidator[] running) {
        try {
            return parseAndValidate(file, requested, running);
        } catch (EncryptedPdfException e) {
            return errorJSON("encrypted", describe(e));
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Exception | StackOverflowError e) {
            // ModelParsingException and whatever else the parser throws on a broken file.
            return errorJSON("parse", describe(e));
        }
    }

    private String parseAndValidate(File file, PDFAFlavour requested, PDFAValidator[] running) throws Exception {
        PDFAFlavour claimed;
        PDFAFlavour checked;
        try (PDFAParser probe = Foundries.defaultInstance().createParser(file, PDFAFlavour.NO_FLAVOUR,
                PDFAFlavour.NO_FLAVOUR)) {
            // getFlavour() throws when nothing was detected; the list is empty then.
            List<PDFAFlavour> detected = probe.getFlavours();
            claimed = detected == null || detected.isEmpty() || detected.get(0) == null ? PDFAFlavour.NO_FLAVOUR
                    : detected.get(0);
            checked = requested != null ? requested : (claimed == PDFAFlavour.NO_FLAVOUR ? AUTO_FALLBACK : claimed);
            if (checked == claimed) {
                return run(probe, claimed, checked, running);
            }
        }
        // The model depends on the flavour it is parsed for: parse again for the one checked.
        try (PDFAParser parser = Foundries.defaultInstance().createParser(file, checked)) {
            return run(parser, claimed, checked, running);
        }
    }

    private String run(PDFAParser parser, PDFAFlavour claimed, PDFAFlavour checked, PDFAValidator[] running)
            throws Exception {
        PDFAValidator validator = Foundries.defaultInstance().createValidator(checked, false);
        synchronized (running) {
            running[0] = validator;
        }
        ValidationResult result = validator.validate(parser);
        if (result.getJobEndStatus() != null && result.getJobEndStatus() != JobEndStatus.NORMAL) {
            return errorJSON("timeout", "validation ended: " + result.getJobEndStatus());
        }
        ValidationProfile profile = result.getValidationProfile() != null ? result.getValidationProfile()
                : validator.getProfile();
        List<Map.Entry<RuleId, Integer>> failed = new ArrayList<>(result.getFailedChecks().entrySet());
        failed.sort(Comparator.comparing((Map.Entry<RuleId, Integer> e) -> e.getKey().getSpecification().getId())
                .thenComparing(e -> clauseKey(e.getKey().getClause()))
                .thenComparingInt(e -> e.getKey().getTestNumber()));
        StringBuilder sb = new StringBuilder();
        sb.append("\"compliant\":").append(result.isCompliant());
        sb.append(",\"flavour\":").append(Json.quote(claimed == PDFAFlavour.NO_FLAVOUR ? "" : claimed.getId()));
        sb.append(",\"checked_flavour\":").append(Json.quote(checked.getId()));
        sb.append(",\"failed_rules\":[");
        boolean first = true;
        for (Map.Entry<RuleId, Integer> e : failed) {
            if (e.getValue() == null || e.getValue() <= 0) {
                continue;
            }
            RuleId r = e.getKey();
            Rule rule = profile != null ? profile.getRuleByRuleId(r) : null;
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append("{\"specification\":").append(Json.quote(r.getSpecification().getId()));
            sb.append(",\"clause\":").append(Json.quote(r.getClause()));
            sb.append(",\"test_number\":").append(r.getTestNumber());
            sb.append(",\"description\":").append(Json.quote(rule != null ? rule.getDescription() : ""));
            sb.append(",\"failed_checks\":").append(e.getValue()).append('}');
        }
        sb.append("],").append(validatorJSON());
        return sb.toString();
    }

    /** Sorts clauses numerically part by part ("6.2.11" after "6.2.2"). */
    private static String clauseKey(String clause) {
        StringBuilder k = new StringBuilder();
        for (String part : clause.split("\\.")) {
            k.append(String.format("%06d", part.chars().allMatch(Character::isDigit) && !part.isEmpty()
                    ? Integer.parseInt(part.length() > 6 ? part.substring(0, 6) : part) : 0)).append(part).append('.');
        }
        return k.toString();
    }

    private String errorJSON(String kind, String message) {
        return "\"error\":{\"kind\":" + Json.quote(kind) + ",\"message\":" + Json.quote(message) + "},"
                + validatorJSON();
    }

    private static String describe(Throwable t) {
        if (DEBUG) {
            t.printStackTrace(System.err);
        }
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null && sb.length() < 600; c = c.getCause()) {
            if (sb.length() > 0) {
                sb.append(": ");
            }
            String m = c.getMessage();
            sb.append(m != null && !m.isBlank() ? m : c.getClass().getSimpleName());
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.length() > 600 ? sb.substring(0, 600) : sb.toString();
    }
}
