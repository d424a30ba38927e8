package dev.einvoice.oracle;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;

/**
 * Command line of the reference oracle.
 *
 * <pre>
 * java -jar oracle.jar serve --sch A.sch [--sch B.sch ...]
 *     reads requests on stdin, one JSON result line per request on stdout:
 *       a line holding a document path, or
 *       "#bytes LEN NAME\n" followed by exactly LEN bytes of document (NAME is the "file" field).
 *     After all stages are compiled it writes the line {"ready":true,...} once.
 * java -jar oracle.jar once --sch A.sch [--sch B.sch ...] FILE...
 *     compiles, validates each FILE, prints one JSON line each (a cold whole-process run).
 * --cache DIR (any command) keeps each stage's generated validation stylesheet in DIR.
 * java -jar oracle.jar bench --sch A.sch [--n 200] [--warmup 50] [--xsd S.xsd] FILE
 *     validates FILE warmup+n times and prints the median, min and max of the
 *     Schematron-only time (ms) of the last n runs. With --xsd, each run also
 *     validates FILE against the schema (the JDK's own XML Schema validator,
 *     the schema compiled once) and the XSD time and the whole run's
 *     (XSD + Schematron) are printed too: the reference's whole validation.
 *     With --rounds R (R &gt; 1), the n runs are split into R rounds: before each
 *     round it prints {"round":K,"rounds":R} and waits for a line on stdin
 *     (EOF: no more waiting), then re-warms with 5 unmeasured runs, so that a driver
 *     can time another program between the rounds, in the same seconds as this one
 *     (scripts/profilebench.sh). With ORACLE_BENCH_TIMES set in the environment, the
 *     measured runs' times, in order, go to stderr (to see what a pause costs).
 * </pre>
 */
public final class Main {
    private Main() {}

    /** Unmeasured runs of bench after each pause between rounds. */
    private static final int REWARM = 5;

    public static void main(String[] args) throws InterruptedException {
        // SchXslt's expand step recurses once per abstract-pattern parameter; the EN 16931
        // rule sets have hundreds, more than a default thread stack holds.
        int[] rc = {1};
        Thread worker = new Thread(null, () -> rc[0] = runMain(args), "oracle", 1L << 30);
        worker.start();
        worker.join();
        System.exit(rc[0]);
    }

    private static int runMain(String[] args) {
        try {
            return run(args);
        } catch (UsageException e) {
            System.err.println("oracle: " + e.getMessage());
            System.err.println("usage: oracle serve|once|bench --sch FILE.sch [--sch ...] [--cache DIR] [--n N] [--warmup N] [--rounds R] [--xsd FILE.xsd] [FILE...]");
            return 2;
        } catch (Exception e) {
            System.err.println("oracle: " + e);
            return 1;
        }
    }

    static final class UsageException extends Exception {
        UsageException(String msg) {
            super(msg);
        }
    }

    private static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException("missing command");
        }
        String cmd = args[0];
        List<Path> sch = new ArrayList<>();
        List<String> files = new ArrayList<>();
        int n = 200;
        int warmup = 50;
        int rounds = 1;
        Path cache = null;
        Path xsd = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--sch":
                    sch.add(Path.of(value(args, ++i, a)));
                    break;
                case "--cache":
                    cache = Path.of(value(args, ++i, a));
                    break;
                case "--n":
                    n = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--warmup":
                    warmup = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--rounds":
                    rounds = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--xsd":
                    xsd = Path.of(value(args, ++i, a));
                    break;
                default:
                    if (a.startsWith("--")) {
                        throw new UsageException("unknown flag " + a);
                    }
                    files.add(a);
            }
        }
        if (sch.isEmpty()) {
            throw new UsageException("at least one --sch is required");
        }
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.UTF_8);
        switch (cmd) {
            case "serve": {
                Validator v = new Validator(sch, cache);
                out.println("{\"ready\":true,\"stages\":" + v.stageNamesJson() + "}");
                out.flush();
                serve(v, new BufferedInputStream(System.in, 1 << 16), out);
                return 0;
            }
            case "once": {
                if (files.isEmpty()) {
                    throw new UsageException("once needs at least one document");
                }
                Validator v = new Validator(sch, cache);
                for (String f : files) {
                    Path p = Path.of(f);
                    out.println(v.validate(f, Files.readAllBytes(p), p.toAbsolutePath().toUri().toString()).toJson());
                }
                out.flush();
                return 0;
            }
            case "bench": {
                if (files.size() != 1) {
                    throw new UsageException("bench needs exactly one document");
                }
                if (n < 1 || warmup < 0 || rounds < 1 || rounds > n) {
                    throw new UsageException("bench needs n >= 1, warmup >= 0 and 1 <= rounds <= n");
                }
                Validator v = new Validator(sch, cache);
                Path p = Path.of(files.get(0));
                byte[] data = Files.readAllBytes(p);
                String uri = p.toAbsolutePath().toUri().toString();
                javax.xml.validation.Validator xv = null;
                if (xsd != null) {
                    SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
                    sf.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "file");
                    xv = sf.newSchema(xsd.toFile()).newValidator();
                }
                double[] ms = new double[n];
                double[] xms = new double[n];
                double[] all = new double[n];
                BufferedReader go = rounds > 1 ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)) : null;
                int round = 0;
                for (int i = 0; i < warmup + n; i++) {
                    // Round k starts at measured run k*n/rounds.
                    if (go != null && i >= warmup && (long) (i - warmup) * rounds >= (long) round * n && round < rounds) {
                        out.printf("{\"round\":%d,\"rounds\":%d}%n", round, rounds);
                        out.flush();
                        if (go.readLine() == null) {
                            go = null;
                        }
                        round++;
                        // The first runs after a pause are slower (caches the other program
                        // used): re-warm, unmeasured, as the first round's warm-up did.
                        for (int w = 0; w < REWARM; w++) {
                            if (xv != null) {
                                xv.validate(new StreamSource(new ByteArrayInputStream(data), uri));
                            }
                            v.validate(files.get(0), data, uri);
                        }
                    }
                    double x = 0;
                    if (xv != null) {
                        long t0 = System.nanoTime();
                        xv.validate(new StreamSource(new ByteArrayInputStream(data), uri));
                        x = (System.nanoTime() - t0) / 1e6;
                    }
                    Result r = v.validate(files.get(0), data, uri);
                    if (r.error != null) {
                        throw new IOException("bench: " + r.error);
                    }
                    if (i >= warmup) {
                        ms[i - warmup] = r.ms;
                        xms[i - warmup] = x;
                        all[i - warmup] = x + r.ms;
                    }
                }
                if (System.getenv("ORACLE_BENCH_TIMES") != null) {
                    System.err.println("times " + Arrays.toString(ms));
                }
                Arrays.sort(ms);
                Arrays.sort(xms);
                Arrays.sort(all);
                String whole = xv == null ? "" : String.format(",\"xsd_median_ms\":%.3f,\"xsd_min_ms\":%.3f,\"whole_median_ms\":%.3f,\"whole_min_ms\":%.3f",
                        xms[n / 2], xms[0], all[n / 2], all[0]);
                out.printf("{\"file\":%s,\"n\":%d,\"warmup\":%d,\"rounds\":%d,\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f%s}%n",
                        Json.quote(files.get(0)), n, warmup, rounds, ms[n / 2], ms[0], ms[n - 1], whole);
                out.flush();
                return 0;
            }
            default:
                throw new UsageException("unknown command " + cmd);
        }
    }

    private static String value(String[] args, int i, String flag) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(flag + " needs a value");
        }
        return args[i];
    }

    private static void serve(Validator v, InputStream in, PrintStream out) throws IOException {
        while (true) {
            String line = readLine(in);
            if (line == null) {
                return;
            }
            if (line.isEmpty()) {
                continue;
            }
            Result r;
            if (line.startsWith("#bytes ")) {
                String[] parts = line.split(" ", 3);
                if (parts.length < 2) {
                    throw new IOException("bad request header: " + line);
                }
                int len;
                try {
                    len = Integer.parseInt(parts[1]);
                } catch (NumberFormatException e) {
                    throw new IOException("bad length in request header: " + line, e);
                }
                if (len < 0) {
                    throw new IOException("negative length in request header: " + line);
                }
                String name = parts.length == 3 ? parts[2] : "";
                byte[] data = in.readNBytes(len);
                if (data.length != len) {
                    throw new EOFException("document " + name + ": got " + data.length + " of " + len + " bytes");
                }
                r = v.validate(name, data, new File(name).getAbsoluteFile().toURI().toString());
            } else {
                Path p = Path.of(line);
                byte[] data;
                try {
                    data = Files.readAllBytes(p);
                } catch (IOException e) {
                    r = new Result(line);
                    r.error = "read: " + e;
                    out.println(r.toJson());
                    out.flush();
                    continue;
                }
                r = v.validate(line, data, p.toAbsolutePath().toUri().toString());
            }
            out.println(r.toJson());
            out.flush();
        }
    }

    /** Reads one UTF-8 line without its terminator; null at end of input. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(128);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            buf.write(c);
        }
        if (c == -1 && buf.size() == 0) {
            return null;
        }
        String s = buf.toString(StandardCharsets.UTF_8);
        if (s.endsWith("\r")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }
}
