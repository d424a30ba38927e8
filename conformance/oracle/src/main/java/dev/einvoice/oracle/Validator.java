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
 * compile for SVRL) and runs the resulting stylesheets, in order, on documents. Not thread-safe:
 * the serve loop is sequential.
 */
final class Validator {
    static final String SVRL = "http://purl.oclc.org/dsdl/svrl";
    private static final String PIPELINE = "/xslt/2.0/pipeline-for-svrl.xsl";
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
        URL pipeline = Validator.class.getResource(PIPELINE);
        if (pipeline == null) {
            throw new IOException("SchXslt pipeline " + PIPELINE + " not on the class path");
        }
        XsltExecutable pipe = null;
        for (Path sch : schFiles) {
            Path abs = sch.toAbsolutePath().normalize();
            try {
                long t0 = System.nanoTime();
                Path cached = cacheDir == null ? null : cacheDir.resolve(cacheKey(abs, pipeline) + ".xsl");
                Source compiledSource;
                String how;
                if (cached != null && Files.isRegularFile(cached)) {
                    // Read the cached stylesheet, but resolve its relative references against the .sch.
                    compiledSource = new StreamSource(new ByteArrayInputStream(Files.readAllBytes(cached)), abs.toUri().toString());
                    how = "cached " + cached.getFileName();
                } else {
                    if (pipe == null) {
                        try (InputStream in = pipeline.openStream()) {
                            pipe = proc.newXsltCompiler().compile(new StreamSource(in, pipeline.toExternalForm()));
                        }
                    }
                    XdmNode schDoc = builder.build(abs.toFile());
                    XsltTransformer t = pipe.load();
                    t.setInitialContextNode(schDoc);
                    XdmDestination compiled = new XdmDestination();
                    compiled.setBaseURI(abs.toUri());
                    t.setDestination(compiled);
                    t.transform();
                    XdmNode node = compiled.getXdmNode();
                    if (cached != null) {
                        store(node, cached);
                    }
                    compiledSource = node.asSource();
                    how = "SchXslt pipeline";
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
    private static String cacheKey(Path sch, URL pipeline) throws IOException {
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
