package picture

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/color"
	"runtime"
	"sync"
	"sync/atomic"
)

// The PNG is written here rather than by image/png, to compress it on every core: its rows are cut into
// bands of pngBandRows, each mapped onto the palette and compressed on its own (a deflate stream ended by
// a flush, not closed, so the bands join into one stream), and the bands' checksums combined. The bands
// do not depend on the number of cores, so neither do the bytes. Rows are not filtered: a palette index
// is a name, not a quantity, and every PNG filter made the 100-unit picture larger.

// pngLevel is the deflate level, chosen by measurement (docs/performance.md, Map pictures): the fastest
// that keeps the 100-unit picture near 100 KB.
const pngLevel = 5

// pngBandRows is the height of a band compressed on its own: small enough to share out over the cores,
// large enough that starting a band's dictionary afresh costs little.
const pngBandRows = 128

// encodePNG maps img onto the palette and writes it as a PNG.
func encodePNG(img *image.RGBA) ([]byte, error) {
	pal := palette()
	w, h := img.Rect.Dx(), img.Rect.Dy()
	n := (h + pngBandRows - 1) / pngBandRows
	type band struct {
		z     []byte
		adler uint32
		raw   int
		err   error
	}
	bands := make([]band, n)
	var next atomic.Int32
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			raw := make([]byte, 0, (w+1)*pngBandRows)
			colours := new(colourMap)
			// One compressor a worker, reset for each band: making one costs more than a band.
			var fw *flate.Writer
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				y0, y1 := k*pngBandRows, min(h, (k+1)*pngBandRows)
				raw = raw[:(w+1)*(y1-y0)]
				for y := y0; y < y1; y++ {
					row := raw[(y-y0)*(w+1) : (y-y0+1)*(w+1)]
					row[0] = 0 // no filter
					colours.mapRow(img, y, row[1:])
				}
				var buf bytes.Buffer
				var err error
				if fw == nil {
					fw, err = flate.NewWriter(&buf, pngLevel)
				} else {
					fw.Reset(&buf)
				}
				if err == nil {
					_, err = fw.Write(raw)
				}
				if err == nil {
					if k == n-1 {
						err = fw.Close()
					} else {
						err = fw.Flush()
					}
				}
				bands[k] = band{z: buf.Bytes(), adler: adler32.Checksum(raw), raw: len(raw), err: err}
			}
		})
	}
	wg.Wait()

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits an index, paletted
	writeChunk(&out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(pal))
	for _, c := range pal {
		q := color.RGBAModel.Convert(c).(color.RGBA)
		plte = append(plte, q.R, q.G, q.B)
	}
	writeChunk(&out, "PLTE", plte)
	z := []byte{0x78, 0x5E} // deflate with a 32 KB window, a middling level
	sum := uint32(1)
	for _, b := range bands {
		if b.err != nil {
			return nil, b.err
		}
		z = append(z, b.z...)
		sum = adler32Combine(sum, b.adler, b.raw)
	}
	z = binary.BigEndian.AppendUint32(z, sum)
	writeChunk(&out, "IDAT", z)
	writeChunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

// writeChunk writes a PNG chunk: length, type, data, and the CRC of type and data.
func writeChunk(out *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	out.WriteString(kind)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}

// adler32Combine is the Adler-32 checksum of two pieces of data joined, from their checksums and the
// second's length (as zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int) uint32 {
	const base = 65521
	rem := uint64(lenB % base)
	s1 := uint64(a & 0xFFFF)
	s2 := rem * s1 % base
	s1 += uint64(b&0xFFFF) + base - 1
	s2 += uint64(a>>16) + uint64(b>>16) + base - rem
	s1 %= base
	s2 %= base
	return uint32(s1 | s2<<16)
}
