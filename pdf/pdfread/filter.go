package pdfread

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// StreamData decodes s through its filters, bounded by the limits of d.
func (d *Doc) StreamData(s *Stream) (out []byte, err error) {
	defer recoverErr(&err)
	return d.decodeStream(s)
}

func (d *Doc) decodeStream(s *Stream) ([]byte, error) {
	if s == nil {
		return nil, malformed("nil stream")
	}
	filters, parms := d.filterList(s.Dict)
	out, err := Decode(s.Raw, filters, parms, d.lim.MaxDecoded)
	if err != nil {
		return nil, err
	}
	if err := d.charge(int64(len(out))); err != nil {
		return nil, err
	}
	return out, nil
}

func (d *Doc) filterList(dict Dict) ([]Name, []Dict) {
	var filters []Name
	var parms []Dict
	switch f := d.Get(dict, "Filter").(type) {
	case Name:
		filters = []Name{f}
	case Array:
		for _, x := range f {
			n, _ := d.Resolve(x)
			if nm, ok := n.(Name); ok {
				filters = append(filters, nm)
			}
		}
	}
	dp := d.Get(dict, "DecodeParms")
	if _, ok := dp.(Null); ok {
		dp = d.Get(dict, "DP")
	}
	switch p := dp.(type) {
	case Dict:
		parms = []Dict{p}
	case Array:
		for _, x := range p {
			n, _ := d.Resolve(x)
			pd, _ := n.(Dict)
			parms = append(parms, pd)
		}
	}
	return filters, parms
}

// Decode applies filters in order (parms[i] belongs to filters[i], may be
// nil); the output of every step is bounded by max bytes.
func Decode(raw []byte, filters []Name, parms []Dict, max int64) ([]byte, error) {
	data := raw
	for i, f := range filters {
		var p Dict
		if i < len(parms) {
			p = parms[i]
		}
		var err error
		switch f {
		case "FlateDecode", "Fl":
			data, err = inflate(data, max)
			if err == nil {
				data, err = predict(data, p, max)
			}
		case "LZWDecode", "LZW":
			early := true
			if v, ok := AsInt(p["EarlyChange"]); ok && v == 0 {
				early = false
			}
			data, err = lzwDecode(data, early, max)
			if err == nil {
				data, err = predict(data, p, max)
			}
		case "ASCIIHexDecode", "AHx":
			data, err = asciiHex(data)
		case "ASCII85Decode", "A85":
			data, err = ascii85(data, max)
		case "RunLengthDecode", "RL":
			data, err = runLength(data, max)
		default:
			return nil, fmt.Errorf("%w: %s", ErrUnsupportedFilter, f)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if int64(len(data)) > max {
			return nil, limitErr("stream decodes to more than %d bytes", max)
		}
	}
	return data, nil
}

// inflate decompresses zlib (or raw deflate) data, at most max bytes.
// Truncated or corrupt data keeps what was decoded before the damage, as
// viewers do.
func inflate(data []byte, max int64) ([]byte, error) {
	var r io.Reader
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		r = flate.NewReader(bytes.NewReader(data))
	} else {
		r = zr
	}
	out, err := readBounded(r, max)
	if isLimit(err) {
		return nil, limitErr("flate stream decodes to more than %d bytes", max)
	}
	if err != nil && len(out) == 0 {
		if zr != nil {
			// Maybe a raw deflate stream with a bogus zlib header.
			out2, err2 := readBounded(flate.NewReader(bytes.NewReader(data)), max)
			if isLimit(err2) {
				return nil, limitErr("flate stream decodes to more than %d bytes", max)
			}
			if err2 == nil || len(out2) > 0 {
				return out2, nil
			}
		}
		return nil, malformed("corrupt flate data: %v", err)
	}
	return out, nil
}

// readBounded reads r to the end in chunks of at most 1 MiB and joins
// them once, so memory is the decoded size (twice at the join), never a
// doubling buffer's overshoot; more than max bytes is ErrLimit. A read
// error is returned with the bytes read before it.
func readBounded(r io.Reader, max int64) ([]byte, error) {
	const chunk = 1 << 20
	var parts [][]byte
	var total int64
	size := 32 << 10
	for {
		buf := make([]byte, size)
		n, err := io.ReadFull(r, buf)
		total += int64(n)
		if total > max {
			return nil, ErrLimit
		}
		parts = append(parts, buf[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return join(parts, total), err
		}
		if size < chunk {
			size *= 2
		}
	}
	return join(parts, total), nil
}

func join(parts [][]byte, total int64) []byte {
	if len(parts) == 1 {
		return parts[0]
	}
	out := make([]byte, 0, total)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// predict undoes a PNG (>= 10) or TIFF (2) predictor.
func predict(data []byte, p Dict, max int64) ([]byte, error) {
	if p == nil {
		return data, nil
	}
	pred, _ := AsInt(p["Predictor"])
	if pred <= 1 {
		return data, nil
	}
	colors, bpc, columns := int64(1), int64(8), int64(1)
	if v, ok := AsInt(p["Colors"]); ok && v > 0 {
		colors = v
	}
	if v, ok := AsInt(p["BitsPerComponent"]); ok && v > 0 {
		bpc = v
	}
	if v, ok := AsInt(p["Columns"]); ok && v > 0 {
		columns = v
	}
	if colors > 64 || bpc > 16 || columns > 1<<24 {
		return nil, malformed("predictor parameters out of range")
	}
	bpp := int((colors*bpc + 7) / 8)
	rowLen := int((colors*bpc*columns + 7) / 8)
	if rowLen <= 0 {
		return nil, malformed("predictor row length is zero")
	}
	if pred == 2 {
		if bpc != 8 {
			return data, nil // rare; leave as is
		}
		out := append([]byte(nil), data...)
		for r := 0; r+rowLen <= len(out); r += rowLen {
			for i := bpp; i < rowLen; i++ {
				out[r+i] += out[r+i-bpp]
			}
		}
		return out, nil
	}
	if pred < 10 {
		return nil, malformed("unknown predictor %d", pred)
	}
	out := make([]byte, 0, len(data))
	prev := make([]byte, rowLen)
	cur := make([]byte, rowLen)
	for pos := 0; pos < len(data); {
		ft := data[pos]
		pos++
		n := copy(cur, data[pos:])
		pos += n
		for i := n; i < rowLen; i++ {
			cur[i] = 0
		}
		for i := 0; i < rowLen; i++ {
			var left, up, ul byte
			if i >= bpp {
				left = cur[i-bpp]
				ul = prev[i-bpp]
			}
			up = prev[i]
			switch ft {
			case 0:
			case 1:
				cur[i] += left
			case 2:
				cur[i] += up
			case 3:
				cur[i] += byte((int(left) + int(up)) / 2)
			case 4:
				cur[i] += paeth(left, up, ul)
			default:
				return nil, malformed("bad PNG filter type %d", ft)
			}
		}
		out = append(out, cur[:n]...)
		if int64(len(out)) > max {
			return nil, limitErr("stream decodes to more than %d bytes", max)
		}
		prev, cur = cur, prev
	}
	return out, nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func asciiHex(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data)/2)
	var hi byte
	half := false
	for _, c := range data {
		if c == '>' {
			break
		}
		if isSpace(c) {
			continue
		}
		v, ok := unhex(c)
		if !ok {
			return nil, malformed("bad ASCIIHex digit %q", c)
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		out = append(out, hi<<4)
	}
	return out, nil
}

func ascii85(data []byte, max int64) ([]byte, error) {
	out := make([]byte, 0, len(data)*4/5)
	var group [5]byte
	n := 0
	flush := func(k int) {
		var v uint32
		for i := 0; i < 5; i++ {
			v = v*85 + uint32(group[i])
		}
		b := []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		out = append(out, b[:k]...)
	}
	if bytes.HasPrefix(data, []byte("<~")) {
		data = data[2:]
	}
	for _, c := range data {
		if int64(len(out)) > max {
			return nil, limitErr("stream decodes to more than %d bytes", max)
		}
		switch {
		case c == '~':
			goto end
		case isSpace(c):
			continue
		case c == 'z' && n == 0:
			out = append(out, 0, 0, 0, 0)
			continue
		case c >= '!' && c <= 'u':
			group[n] = c - '!'
			n++
			if n == 5 {
				flush(4)
				n = 0
			}
		default:
			return nil, malformed("bad ASCII85 character %q", c)
		}
	}
end:
	if n > 0 {
		for i := n; i < 5; i++ {
			group[i] = 84
		}
		flush(n - 1)
	}
	return out, nil
}

func runLength(data []byte, max int64) ([]byte, error) {
	var out []byte
	for i := 0; i < len(data); {
		l := int(data[i])
		i++
		switch {
		case l == 128:
			return out, nil
		case l < 128:
			end := i + l + 1
			if end > len(data) {
				end = len(data)
			}
			out = append(out, data[i:end]...)
			i = end
		default:
			if i >= len(data) {
				return out, nil
			}
			for k := 0; k < 257-l; k++ {
				out = append(out, data[i])
			}
			i++
		}
		if int64(len(out)) > max {
			return nil, limitErr("stream decodes to more than %d bytes", max)
		}
	}
	return out, nil
}

var errLZW = errors.New("bad LZW code")

// lzwDecode decodes PDF LZW (MSB first, 9 to 12 bit codes, clear 256,
// end 257; early change by default).
func lzwDecode(data []byte, early bool, max int64) ([]byte, error) {
	var out []byte
	type ent struct {
		prev int
		c    byte
		n    int
	}
	table := make([]ent, 4096)
	for i := 0; i < 256; i++ {
		table[i] = ent{prev: -1, c: byte(i), n: 1}
	}
	next := 258
	width := 9
	var bitbuf uint32
	nbits := 0
	prevCode := -1
	e := 0
	if early {
		e = 1
	}
	emit := func(code int) byte {
		n := table[code].n
		start := len(out)
		out = append(out, make([]byte, n)...)
		for c, i := code, n-1; i >= 0 && c >= 0; i-- {
			out[start+i] = table[c].c
			c = table[c].prev
		}
		return out[start]
	}
	for _, b := range data {
		bitbuf = bitbuf<<8 | uint32(b)
		nbits += 8
		for nbits >= width {
			code := int(bitbuf>>(nbits-width)) & (1<<width - 1)
			nbits -= width
			switch {
			case code == 256:
				next, width, prevCode = 258, 9, -1
				continue
			case code == 257:
				return out, nil
			case prevCode < 0:
				if code > 255 {
					return nil, errLZW
				}
				emit(code)
			case code < next:
				first := emit(code)
				if next < 4096 {
					table[next] = ent{prev: prevCode, c: first, n: table[prevCode].n + 1}
					next++
				}
			case code == next && next < 4096:
				// KwKwK case.
				first := emit(prevCode)
				out = append(out, first)
				table[next] = ent{prev: prevCode, c: first, n: table[prevCode].n + 1}
				next++
			default:
				return nil, errLZW
			}
			prevCode = code
			if int64(len(out)) > max {
				return nil, limitErr("stream decodes to more than %d bytes", max)
			}
			if next+e >= 1<<width && width < 12 {
				width++
			}
		}
	}
	return out, nil
}
