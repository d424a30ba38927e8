package pdfaconv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Defaults of Config.
const (
	DefaultTimeout       = 60 * time.Second
	DefaultMaxMemory     = 1 << 30 // address space of one Ghostscript process
	DefaultMaxConcurrent = 2
	maxGSOutput          = 16 << 10 // bytes of Ghostscript messages kept
)

// iccCandidates are where Debian's icc-profiles-free (and colord) install an
// sRGB ICC v2 profile.
var iccCandidates = []string{
	"/usr/share/color/icc/sRGB.icc",
	"/usr/share/color/icc/colord/sRGB.icc",
	"/usr/share/color/icc/ghostscript/srgb.icc",
}

// FindSRGBProfile returns the first sRGB ICC profile found at the Debian
// locations, or an error naming them.
func FindSRGBProfile() (string, error) {
	for _, p := range iccCandidates {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", fmt.Errorf("no sRGB ICC profile found (looked at %s); install icc-profiles-free", strings.Join(iccCandidates, ", "))
}

// ghostscript runs gs's pdfwrite device on in and returns the PDF/A-3 it
// wrote. The process runs in its own directory (deleted afterwards) with a
// minimal environment, -dSAFER (file access limited to its input, output
// and the ICC profile), an address-space limit and the context's deadline
// (the whole process group is killed when it passes).
func (c *Converter) ghostscript(ctx context.Context, in []byte) ([]byte, string, error) {
	gs, err := c.gsPath()
	if err != nil {
		return nil, "", err
	}
	icc := c.cfg.ICCProfile
	if icc == "" {
		if icc, err = FindSRGBProfile(); err != nil {
			return nil, "", &Error{Kind: KindUnavailable, Detail: err.Error(), Err: err}
		}
	}
	dir, err := os.MkdirTemp(c.cfg.TempDir, "pdfaconv-")
	if err != nil {
		return nil, "", fmt.Errorf("pdfaconv: temp dir: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	inPath, outPath, defPath := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "out.pdf"), filepath.Join(dir, "pdfa_def.ps")
	if err := os.WriteFile(inPath, in, 0o600); err != nil {
		return nil, "", fmt.Errorf("pdfaconv: write input: %w", err)
	}
	if err := os.WriteFile(defPath, pdfaDef(icc), 0o600); err != nil {
		return nil, "", fmt.Errorf("pdfaconv: write PDFA definition: %w", err)
	}
	args := []string{
		"-c", `ulimit -v "$0" 2>/dev/null; exec "$@"`, strconv.FormatInt(c.cfg.MaxMemory/1024, 10),
		gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOPROMPT", "-sstdout=%stderr",
		"-sDEVICE=pdfwrite", "-dPDFA=3", "-dPDFACompatibilityPolicy=1",
		"-sColorConversionStrategy=RGB", "-sProcessColorModel=DeviceRGB",
		"-dEmbedAllFonts=true", "-dSubsetFonts=true", "-dAutoRotatePages=/None",
		"-dMaxBitmap=" + strconv.FormatInt(c.cfg.MaxMemory/8, 10),
		"--permit-file-read=" + icc,
		"-sOutputFile=" + outPath, defPath, inPath,
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "TMPDIR=" + dir, "LC_ALL=C"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var msgs limitedBuffer
	cmd.Stdout, cmd.Stderr = &msgs, &msgs
	runErr := cmd.Run()
	log := msgs.String()
	if ctxErr := ctx.Err(); ctxErr != nil {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return nil, log, &Error{Kind: KindUnreadable, Detail: "Ghostscript did not finish within the time limit of " + c.cfg.Timeout.String(), Err: ctxErr}
		}
		return nil, log, ctxErr
	}
	if reason := gsFatal(log); reason != "" {
		return nil, log, &Error{Kind: KindUnreadable, Detail: "Ghostscript cannot read the PDF: " + reason, Err: runErr}
	}
	if runErr != nil {
		return nil, log, &Error{Kind: KindUnreadable, Detail: "Ghostscript failed on the PDF: " + firstLines(log, runErr.Error()), Err: runErr}
	}
	out, err := os.ReadFile(outPath)
	if err != nil || len(out) == 0 {
		return nil, log, &Error{Kind: KindUnreadable, Detail: "Ghostscript wrote no output: " + firstLines(log, "no message"), Err: err}
	}
	return out, log, nil
}

// gsPath resolves the Ghostscript binary; a missing one is KindUnavailable.
func (c *Converter) gsPath() (string, error) {
	name := c.cfg.Ghostscript
	if name == "" {
		name = "gs"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", &Error{Kind: KindUnavailable, Detail: "Ghostscript (" + name + ") is not installed on this server; PDF/A conversion is unavailable (install the ghostscript package)", Err: err}
	}
	return p, nil
}

// pdfaDef is the PostScript prologue that gives pdfwrite the sRGB output
// intent PDF/A requires (the ICC profile is read by Ghostscript itself).
func pdfaDef(icc string) []byte {
	var b bytes.Buffer
	b.WriteString("%!\n")
	b.WriteString("[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark\n")
	b.WriteString("[{icc_PDFA} << /N 3 >> /PUT pdfmark\n")
	fmt.Fprintf(&b, "[{icc_PDFA} %s (r) file /PUT pdfmark\n", psString(icc))
	b.WriteString("[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark\n")
	b.WriteString("[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA}" +
		" /OutputConditionIdentifier (sRGB) /Info (sRGB IEC61966-2.1) >> /PUT pdfmark\n")
	b.WriteString("[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark\n")
	return b.Bytes()
}

// psString quotes s as a PostScript string literal.
func psString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return "(" + r.Replace(s) + ")"
}

// gsFatal returns the reason when Ghostscript's messages say it could not
// process the document, even though it exits 0 and writes a (blank) PDF in
// those cases.
func gsFatal(log string) string {
	switch {
	case strings.Contains(log, "requires a password"):
		return "the file requires a password"
	case strings.Contains(log, "Couldn't initialise file"), strings.Contains(log, "No pages will be processed"),
		strings.Contains(log, "Couldn't get page info"), strings.Contains(log, "page not found"):
		return firstLines(log, "pages could not be read")
	case strings.Contains(log, "Unrecoverable error"):
		return firstLines(log, "unrecoverable error")
	}
	return ""
}

// firstLines returns the first few non-empty message lines of log, trimmed
// of Ghostscript's banners, or def when there is none.
func firstLines(log, def string) string {
	var keep []string
	for _, l := range strings.Split(log, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "****"))
		if l == "" || strings.HasPrefix(l, "GPL Ghostscript") && strings.Contains(l, "DOCINFO") {
			continue
		}
		keep = append(keep, strings.TrimSpace(l))
		if len(keep) == 4 {
			break
		}
	}
	if len(keep) == 0 {
		return def
	}
	return strings.Join(keep, " ")
}

// limitedBuffer keeps the first maxGSOutput bytes written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxGSOutput - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}
