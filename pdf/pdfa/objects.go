package pdfa

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"strconv"
	"sync"
	"time"
	"unicode/utf16"
)

// ref is an indirect object number (generation 0).
type ref int

func (r ref) String() string { return strconv.Itoa(int(r)) + " 0 R" }

// pdfName writes a PDF name, escaping every byte outside the regular
// characters as #xx.
func pdfName(s string) string {
	var b []byte
	b = append(b, '/')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '!' || c > '~' || bytes.IndexByte([]byte("#()<>[]{}/%"), c) >= 0 {
			b = append(b, '#', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// pdfText writes a text string: a literal string when s is printable ASCII,
// else UTF-16BE with a byte order mark as a hex string.
func pdfText(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			ascii = false
			break
		}
	}
	if ascii {
		var b []byte
		b = append(b, '(')
		for i := 0; i < len(s); i++ {
			if s[i] == '(' || s[i] == ')' || s[i] == '\\' {
				b = append(b, '\\')
			}
			b = append(b, s[i])
		}
		return string(append(b, ')'))
	}
	u := utf16.Encode([]rune(s))
	b := make([]byte, 0, 6+4*len(u))
	b = append(b, "<FEFF"...)
	for _, c := range u {
		b = fmt.Appendf(b, "%04X", c)
	}
	return string(append(b, '>'))
}

// pdfHex writes a byte string as a hex string.
func pdfHex(p []byte) string { return fmt.Sprintf("<%X>", p) }

// pdfDate formats t as a PDF date in UTC ("D:20260102150405+00'00'").
func pdfDate(t time.Time) string {
	return "D:" + t.UTC().Format("20060102150405") + "+00'00'"
}

// xmpDate formats t as the XMP date equal to pdfDate(t).
func xmpDate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") + "+00:00" }

// num formats a coordinate with at most 3 decimals and no trailing zeros.
func num(b []byte, f float64) []byte {
	b = strconv.AppendFloat(b, f, 'f', 3, 64)
	if bytes.IndexByte(b[len(b)-5:], '.') >= 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	if len(b) >= 2 && b[len(b)-2] == '-' && b[len(b)-1] == '0' { // "-0"
		b = append(b[:len(b)-2], '0')
	}
	return b
}

// object is one serialized indirect object: its dictionary (or other
// value) and, for a stream, its already-encoded data.
type object struct {
	dict   string
	stream []byte
	isStrm bool
}

// fastWriters are the zlib writers of the per-document streams (BestSpeed:
// page content and small streams compress almost as well, several times
// faster); a writer's state is about 1 MB, so they are reused.
var fastWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return w
}}

// flateWriters are raw deflate writers at BestSpeed, for streams assembled
// from parts (subsetStream).
var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

// storeBelow is the stream size below which deflateFast stores the bytes
// (deflate's uncompressed blocks) rather than compressing them: building
// the Huffman codes of a block costs more than the few bytes it saves on
// a glyph map, a short ToUnicode map or a small page.
const storeBelow = 512

// deflateFast compresses p at BestSpeed with a pooled writer; a stream
// shorter than storeBelow is stored.
func deflateFast(p []byte) []byte {
	if len(p) < storeBelow {
		return zlibStored(p)
	}
	var buf bytes.Buffer
	buf.Grow(len(p)/3 + 64)
	w := fastWriters.Get().(*zlib.Writer)
	w.Reset(&buf)
	_, _ = w.Write(p)
	_ = w.Close()
	fastWriters.Put(w)
	return buf.Bytes()
}

// zlibStored is p as a zlib stream of stored (uncompressed) deflate blocks.
func zlibStored(p []byte) []byte {
	out := make([]byte, 0, len(p)+11+5*(len(p)/maxStored))
	out = appendStored(append(out, zlibHeader...), p, true)
	return binary.BigEndian.AppendUint32(out, adler32.Checksum(p))
}

// zlibHeader starts a zlib stream: deflate, 32 KB window, fastest level.
var zlibHeader = []byte{0x78, 0x01}

// maxStored is the most bytes one stored deflate block holds.
const maxStored = 65535

// appendStored appends p as stored deflate blocks to out, which must end
// on a byte boundary of the deflate stream (its start, or after a sync
// flush); the last block is final when final is set. A stored block is a
// byte with BFINAL and BTYPE 00 (padded to the byte), LEN and its
// complement (little-endian), then the bytes.
func appendStored(out, p []byte, final bool) []byte {
	for {
		n := min(len(p), maxStored)
		var h byte
		if final && n == len(p) {
			h = 1
		}
		out = append(out, h, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		out = append(out, p[:n]...)
		if p = p[n:]; len(p) == 0 {
			return out
		}
	}
}
