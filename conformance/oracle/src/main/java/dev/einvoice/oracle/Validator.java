package dev.einvoice.oracle;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.transform.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.DocumentBuilder;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.Serializer;
import net.sf.saxon.s9api.XdmDestination;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XdmNodeKind;
import net.sf.saxon.s9api.XsltCompiler;
import net.sf.saxon.s9api.XsltExecutable;
import net.sf.saxon.s9api.XsltTransformer;
import net.sf.saxon.trans.XPathException;

/**
 * Compiles each Schematron file once with the SchXslt 1.10 XSLT 2.0 pipeline (include, expand,
 * compile for SVRL; its XSLT 1.0 steps for a schema bound to XSLT 1.0) and runs the resulting stylesheets, in order, on documents. Not thread-safe:
 * the serve loop is sequential.
 */
final class Validator {
    static final String SVRL = "http://purl.oclc.org/dsdl/svrl";
    private static final String PIPELINE = "/xslt/2.0/pipeline-for-svrl.xsl";
    /**
     * SchXslt's XSLT 1.0 steps, for schemas whose queryBinding is absent or "xslt" (Order-X):
     * the XSLT 2.0 pipeline refuses them ("The query language 'xslt' is not supported"). Saxon
     * runs the generated 1.0 stylesheet in backwards-compatible mode.
     */
    private static final String[] PIPELINE_10 = {"/xslt/1.0/include.xsl", "/xslt/1.0/expand.xsl", "/xslt/1.0/compile-for-svrl.xsl"};
    private static final String SCH = "http://purl.oclc.org/dsdl/schematron";
    private static final QName QUERY_BINDING = new QName("queryBinding");
    private static final Pattern EQNAME_URI = Pattern.compile("Q\\{[^}]*\\}");
    private static final QName ID = new QName("id");
    private static final QName FLAG = new QName("flag");
    private static final QName LOCATION = new QName("location");

    private final Processor proc = new Processor(false);
    private final DocumentBuilder builder = proc.newDocumentBuilder();
    private final List<Stage> stages = new ArrayList<>();

    private static final class Stage {
        final String name;
        final XsltExecutable exec;

        Stage(String name, XsltExecutable exec) {
            this.name = name;
            this.exec = exec;
        }
    }

    /**
     * Compiles every stage. When cacheDir is not null the SchXslt output (the validation
     * stylesheet, a build output generated from the .sch) is kept there, keyed by a hash of the
     * .sch directory tree and the SchXslt version, so later starts skip the slow pipeline.
     */
    Validator(List<Path> schFiles, Path cacheDir) throws IOException, SaxonApiException {
        List<XsltExecutable> pipe20 = null;
        List<XsltExecutable> pipe10 = null;
        for (Path sch : schFiles) {
            Path abs = sch.toAbsolutePath().normalize();
            try {
                long t0 = System.nanoTime();
                int[] rewritten = {0};
                XdmNode schDoc = builder.build(ContextRewrite.apply(abs, rewritten));
                if (rewritten[0] > 0) {
                    System.err.printf("oracle: stage %s: %d rule contexts with a parenthesised union step evaluated as the union of paths%n",
                            abs.getFileName(), rewritten[0]);
                }
                boolean xslt1 = isXslt1(schDoc);
                String[] steps = xslt1 ? PIPELINE_10 : new String[] {PIPELINE};
                URL pipeline = resource(steps[0]);
                Path cached = cacheDir == null ? null : cacheDir.resolve(cacheKey(abs, pipeline, rewritten[0] > 0) + ".xsl");
                Source compiledSource;
                String how;
                if (cached != null && Files.isRegularFile(cached)) {
                    // Read the cached stylesheet, but resolve its relative references against the .sch.
                    compiledSource = new StreamSource(new ByteArrayInputStream(Files.readAllBytes(cached)), abs.toUri().toString());
                    how = "cached " + cached.getFileName();
                } else {
                    List<XsltExecutable> pipe;
                    if (xslt1) {
                        pipe = pipe10 = pipe10 != null ? pipe10 : compileSteps(PIPELINE_10);
                    } else {
                        pipe = pipe20 = pipe20 != null ? pipe20 : compileSteps(new String[] {PIPELINE});
                    }
                    XdmNode node = schDoc;
                    for (XsltExecutable step : pipe) {
                        XsltTransformer t = step.load();
                        t.setURIResolver(Validator::selfResolver);
                        t.setInitialContextNode(node);
                        XdmDestination compiled = new XdmDestination();
                        compiled.setBaseURI(abs.toUri());
                        t.setDestination(compiled);
                        t.transform();
                        node = compiled.getXdmNode();
                    }
                    if (cached != null) {
                        store(node, cached);
                    }
                    compiledSource = node.asSource();
                    how = xslt1 ? "SchXslt XSLT 1.0 pipeline" : "SchXslt pipeline";
                }
                long t1 = System.nanoTime();
                XsltExecutable exec = proc.newXsltCompiler().compile(compiledSource);
                long t2 = System.nanoTime();
                System.err.printf("oracle: stage %s: %s %.1fs, Saxon compile %.1fs%n",
                        abs.getFileName(), how, (t1 - t0) / 1e9, (t2 - t1) / 1e9);
                stages.add(new Stage(abs.getFileName().toString(), exec));
            } catch (SaxonApiException e) {
                throw new IOException("compile " + sch + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Resolves document('') (SchXslt 1.0's compile step reads its own templates that way) to
     * the calling module: java.net.URI resolves "" against a jar: URL to its directory. Other
     * references resolve as usual.
     */
    private static Source selfResolver(String href, String base) throws javax.xml.transform.TransformerException {
        if (href == null || !href.isEmpty() || base == null) {
            return null;
        }
        try {
            return new StreamSource(new URL(base).openStream(), base);
        } catch (IOException e) {
            throw new javax.xml.transform.TransformerException("document(''): " + base, e);
        }
    }

    private static URL resource(String path) throws IOException {
        URL u = Validator.class.getResource(path);
        if (u == null) {
            throw new IOException("SchXslt stylesheet " + path + " not on the class path");
        }
        return u;
    }

    private List<XsltExecutable> compileSteps(String[] paths) throws IOException, SaxonApiException {
        List<XsltExecutable> out = new ArrayList<>();
        for (String p : paths) {
            URL u = resource(p);
            try (InputStream in = u.openStream()) {
                out.add(proc.newXsltCompiler().compile(new StreamSource(in, u.toExternalForm())));
            }
        }
        return out;
    }

    /** Whether the schema's queryBinding is XSLT 1.0 (absent, "xslt" or "xslt1", as ISO says). */
    private static boolean isXslt1(XdmNode schDoc) {
        for (XdmNode root : schDoc.children()) {
            if (root.getNodeKind() == XdmNodeKind.ELEMENT && SCH.equals(root.getNodeName().getNamespaceURI())) {
                String qb = root.getAttributeValue(QUERY_BINDING);
                if (qb == null) {
                    return true;
                }
                qb = qb.trim().toLowerCase(java.util.Locale.ROOT);
                return qb.isEmpty() || qb.equals("xslt") || qb.equals("xslt1");
            }
        }
        return false;
    }

    private void store(XdmNode node, Path cached) throws IOException, SaxonApiException {
        Files.createDirectories(cached.getParent());
        Path tmp = Files.createTempFile(cached.getParent(), "stage", ".tmp");
        try {
            Serializer ser = proc.newSerializer(tmp.toFile());
            ser.serializeNode(node);
            ser.close();
            Files.move(tmp, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Hash of SchXslt's version and every file (path, size, mtime) in the .sch's directory tree. */
    private static String cacheKey(Path sch, URL pipeline, boolean rewritten) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IOException(e);
        }
        // SchXslt's identity: its Maven coordinates and version from the shaded jar.
        try (InputStream in = Validator.class.getResourceAsStream("/META-INF/maven/name.dmaus.schxslt/schxslt/pom.properties")) {
            if (in == null) {
                throw new IOException("SchXslt pom.properties not on the class path");
            }
            md.update(in.readAllBytes());
        }
        md.update(pipeline.getPath().getBytes(StandardCharsets.UTF_8));
        md.update(("\n" + sch + "\n").getBytes(StandardCharsets.UTF_8));
        if (rewritten) {
            md.update("contexts: union of paths\n".getBytes(StandardCharsets.UTF_8));
        }
        Path dir = sch.getParent();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        for (Path f : files) {
            md.update((dir.relativize(f) + "\t" + Files.size(f) + "\t" + Files.getLastModifiedTime(f).toMillis() + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        StringBuilder b = new StringBuilder();
        for (byte x : md.digest()) {
            b.append(String.format("%02x", x));
        }
        return sch.getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_") + "-" + b.substring(0, 16);
    }

    String stageNamesJson() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < stages.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(Json.quote(stages.get(i).name));
        }
        return b.append(']').toString();
    }

    /** Validates one document against every stage; never throws for document-level problems. */
    Result validate(String name, byte[] data, String systemId) {
        Result r = new Result(name);
        XdmNode doc;
        try {
            doc = builder.build(new StreamSource(new ByteArrayInputStream(data), systemId));
        } catch (SaxonApiException e) {
            r.error = "parse: " + e.getMessage();
            return r;
        }
        long total = 0;
        for (Stage st : stages) {
            long t0 = System.nanoTime();
            XdmDestination out = new XdmDestination();
            try {
                XsltTransformer t = st.exec.load();
                t.setInitialContextNode(doc);
                t.setDestination(out);
                t.transform();
            } catch (SaxonApiException e) {
                total += System.nanoTime() - t0;
                r.fired.add(stageError(st.name, e));
                continue;
            } catch (RuntimeException | StackOverflowError e) {
                // Not an XPath error but a failure of the processor itself (e.g. a document
                // nested too deeply): report it for this stage and keep serving.
                total += System.nanoTime() - t0;
                Finding f = new Finding();
                f.kind = "stage-error";
                f.id = "ORACLE-" + e.getClass().getSimpleName();
                f.text = normalizeSpace(String.valueOf(e.getMessage()));
                f.stage = st.name;
                r.fired.add(f);
                continue;
            }
            total += System.nanoTime() - t0;
            collect(out.getXdmNode(), st.name, r.fired);
        }
        r.ms = total / 1e6;
        return r;
    }

    private static Finding stageError(String stage, SaxonApiException e) {
        Finding f = new Finding();
        f.kind = "stage-error";
        QName code = e.getErrorCode();
        if (code == null && e.getCause() instanceof XPathException) {
            XPathException xe = (XPathException) e.getCause();
            if (xe.getErrorCodeLocalPart() != null) {
                f.id = xe.getErrorCodeLocalPart();
            }
        } else if (code != null) {
            f.id = code.getLocalName();
        }
        f.text = normalizeSpace(e.getMessage() == null ? "" : e.getMessage());
        f.stage = stage;
        return f;
    }

    /** Appends the failed asserts and successful reports of one SVRL report, in order. */
    private static void collect(XdmNode svrlDoc, String stage, List<Finding> dst) {
        for (XdmNode root : svrlDoc.children()) {
            if (root.getNodeKind() != XdmNodeKind.ELEMENT) {
                continue;
            }
            for (XdmNode n : root.children()) {
                if (n.getNodeKind() != XdmNodeKind.ELEMENT || !SVRL.equals(n.getNodeName().getNamespaceURI())) {
                    continue;
                }
                String local = n.getNodeName().getLocalName();
                String kind;
                if (local.equals("failed-assert")) {
                    kind = "assert";
                } else if (local.equals("successful-report")) {
                    kind = "report";
                } else {
                    continue;
                }
                Finding f = new Finding();
                f.id = n.getAttributeValue(ID);
                f.flag = n.getAttributeValue(FLAG);
                f.kind = kind;
                String loc = n.getAttributeValue(LOCATION);
                f.loc = loc == null ? null : EQNAME_URI.matcher(loc).replaceAll("");
                StringBuilder text = new StringBuilder();
                for (XdmNode c : n.children()) {
                    if (c.getNodeKind() == XdmNodeKind.ELEMENT && SVRL.equals(c.getNodeName().getNamespaceURI())
                            && c.getNodeName().getLocalName().equals("text")) {
                        text.append(c.getStringValue());
                    }
                }
                f.text = normalizeSpace(text.toString());
                f.stage = stage;
                dst.add(f);
            }
        }
    }

    /** XPath normalize-space: collapse runs of XML whitespace to one space, trim both ends. */
    static String normalizeSpace(String s) {
        StringBuilder b = new StringBuilder(s.length());
        boolean pending = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pending = b.length() > 0;
                continue;
            }
            if (pending) {
                b.append(' ');
                pending = false;
            }
            b.append(c);
        }
        return b.toString();
    }
}
