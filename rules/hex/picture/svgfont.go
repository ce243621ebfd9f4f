package picture

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/tdewolff/canvas"
	"github.com/tdewolff/font"
)

// fontCSS returns the @font-face rules that embed, in a fixed order, the glyphs the picture's text uses:
// the SVG then looks like the PNG wherever it is opened, for a few kilobytes. (canvas's own embedding
// writes the fonts whole, in map order and stamped with the time of writing; this one is subset and
// deterministic.)
func fontCSS(p *pen) (string, error) {
	var css strings.Builder
	for k, f := range []*canvas.Font{p.fonts.regular, p.fonts.bold} {
		if len(p.used[k]) == 0 {
			continue
		}
		ids := []uint16{0}
		for r := range p.used[k] {
			if id := f.GlyphIndex(r); id != 0 {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		sub, err := subset(f.SFNT, ids)
		if err != nil {
			return "", fmt.Errorf("picture: subsetting font %s: %w", f.Name(), err)
		}
		b, err := unstamp(sub.Write())
		if err != nil {
			return "", fmt.Errorf("picture: font %s: %w", f.Name(), err)
		}
		fmt.Fprintf(&css, "@font-face{font-family:%s", f.Name())
		if k == 1 {
			css.WriteString(";font-weight:700")
		}
		fmt.Fprintf(&css, ";src:url(data:font/ttf;base64,%s)}", base64.StdEncoding.EncodeToString(b))
	}
	return css.String(), nil
}

// subset is the font with only the glyphs ids. SFNT.Subset writes into tables it shares with the font it
// is given (the glyph count, the index format, the metrics count, the Unicode ranges), which would change
// the font every picture is drawn with, and race with any other picture being drawn: it is given a copy
// with those tables of its own.
func subset(f *font.SFNT, ids []uint16) (*font.SFNT, error) {
	cp := *f
	if f.Maxp != nil {
		t := *f.Maxp
		cp.Maxp = &t
	}
	if f.Head != nil {
		t := *f.Head
		cp.Head = &t
	}
	if f.Hhea != nil {
		t := *f.Hhea
		cp.Hhea = &t
	}
	if f.OS2 != nil {
		t := *f.OS2
		cp.OS2 = &t
	}
	return cp.Subset(ids, font.SubsetOptions{Tables: font.KeepMinTables})
}

// unstamp sets the modified time that SFNT.Write stamps into a font's head table back to the font's
// creation time, and mends the checksums, so the same glyphs give the same bytes.
func unstamp(b []byte) ([]byte, error) {
	if len(b) < 12 {
		return nil, fmt.Errorf("font too short")
	}
	n := int(binary.BigEndian.Uint16(b[4:6]))
	for i := 0; i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(b) {
			break
		}
		if string(b[rec:rec+4]) != "head" {
			continue
		}
		off := int(binary.BigEndian.Uint32(b[rec+8:]))
		length := int(binary.BigEndian.Uint32(b[rec+12:]))
		if length < 36 || off+length > len(b) {
			return nil, fmt.Errorf("font head table out of range")
		}
		head := b[off : off+length]
		copy(head[28:36], head[20:28]) // modified = created
		binary.BigEndian.PutUint32(head[8:], 0)
		binary.BigEndian.PutUint32(b[rec+4:], checksum(b[off:min(len(b), off+(length+3)&^3)]))
		binary.BigEndian.PutUint32(head[8:], 0xB1B0AFBA-checksum(b))
		return b, nil
	}
	return nil, fmt.Errorf("font has no head table")
}

// checksum is the OpenType table checksum: the sum of the big-endian 32-bit words, zero-padded.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:min(i+4, len(b))])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
