package picture

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// fontCSS returns the @font-face rules that embed, in a fixed order, the glyphs the picture's text uses:
// the SVG then looks like the PNG wherever it is opened, for a few kilobytes.
func fontCSS(p *pen) (string, error) {
	var css strings.Builder
	for k, file := range fontFiles {
		if len(p.used[k]) == 0 {
			continue
		}
		f := p.fonts.face(k == 1)
		var runes []rune
		for r := range p.used[k] {
			runes = append(runes, r)
		}
		slices.Sort(runes)
		cmap := map[rune]uint16{}
		for _, r := range runes {
			if id, err := f.GlyphIndex(&p.buf, r); err == nil && id != 0 && r <= 0xFFFF {
				cmap[r] = uint16(id)
			}
		}
		b, err := subset(file.ttf, cmap)
		if err != nil {
			return "", fmt.Errorf("picture: subsetting font %s: %w", file.family, err)
		}
		fmt.Fprintf(&css, "@font-face{font-family:%s", file.family)
		if k == 1 {
			css.WriteString(";font-weight:700")
		}
		fmt.Fprintf(&css, ";src:url(data:font/ttf;base64,%s)}", base64.StdEncoding.EncodeToString(b))
	}
	return css.String(), nil
}

// subset returns a TrueType font file made from ttf that holds only the glyphs cmap maps to (and those
// they are built from, and glyph 0), renumbered in their order, with their metrics; the character map
// holds just cmap, and the names and the hinting are dropped (a browser scales the outlines itself). ttf
// is not changed.
func subset(ttf []byte, cmap map[rune]uint16) ([]byte, error) {
	tables, err := readTables(ttf)
	if err != nil {
		return nil, err
	}
	head, loca, glyf, maxp := tables["head"], tables["loca"], tables["glyf"], tables["maxp"]
	if len(head) < 54 || len(maxp) < 6 || glyf == nil || loca == nil {
		return nil, errors.New("not a TrueType font")
	}
	n := int(binary.BigEndian.Uint16(maxp[4:]))
	long := binary.BigEndian.Uint16(head[50:]) == 1
	offset := func(i int) (int, error) {
		var o int
		if long {
			if 4*i+4 > len(loca) {
				return 0, errors.New("loca too short")
			}
			o = int(binary.BigEndian.Uint32(loca[4*i:]))
		} else {
			if 2*i+2 > len(loca) {
				return 0, errors.New("loca too short")
			}
			o = 2 * int(binary.BigEndian.Uint16(loca[2*i:]))
		}
		if o > len(glyf) {
			return 0, errors.New("loca beyond glyf")
		}
		return o, nil
	}
	data := func(i int) ([]byte, error) {
		a, err := offset(i)
		if err != nil {
			return nil, err
		}
		z, err := offset(i + 1)
		if err != nil || z < a {
			return nil, errors.New("bad loca")
		}
		return glyf[a:z], nil
	}

	// The glyphs kept: glyph 0, the mapped ones and their components.
	keep := map[int]bool{}
	todo := []int{0}
	for _, id := range cmap {
		todo = append(todo, int(id))
	}
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if id >= n || keep[id] {
			continue
		}
		keep[id] = true
		g, err := data(id)
		if err != nil {
			return nil, err
		}
		todo = append(todo, components(g)...)
	}

	// The glyphs kept, renumbered in their order.
	ids := make([]int, 0, len(keep))
	for id := range keep {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	renum := make(map[int]uint16, len(ids))
	for i, id := range ids {
		renum[id] = uint16(i)
	}
	hhea, hmtx := tables["hhea"], tables["hmtx"]
	if len(hhea) < 36 {
		return nil, errors.New("no hhea table")
	}
	metrics := int(binary.BigEndian.Uint16(hhea[34:]))
	if metrics == 0 || len(hmtx) < 4*metrics+2*(n-metrics) {
		return nil, errors.New("hmtx too short")
	}
	var newGlyf []byte
	newLoca := make([]byte, 4*(len(ids)+1))
	newHmtx := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.BigEndian.PutUint32(newLoca[4*i:], uint32(len(newGlyf)))
		g, err := data(id)
		if err != nil {
			return nil, err
		}
		newGlyf = append(newGlyf, unhinted(g, renum)...)
		for len(newGlyf)%4 != 0 {
			newGlyf = append(newGlyf, 0)
		}
		// Advance and left side bearing; glyphs past the metrics share the last advance.
		adv := hmtx[4*min(id, metrics-1):][:2]
		lsb := hmtx[4*metrics+2*(id-metrics):]
		if id < metrics {
			lsb = hmtx[4*id+2:]
		}
		copy(newHmtx[4*i:], adv)
		copy(newHmtx[4*i+2:], lsb[:2])
	}
	binary.BigEndian.PutUint32(newLoca[4*len(ids):], uint32(len(newGlyf)))
	newHhea := slices.Clone(hhea)
	binary.BigEndian.PutUint16(newHhea[34:], uint16(len(ids)))
	newMaxp := slices.Clone(maxp)
	binary.BigEndian.PutUint16(newMaxp[4:], uint16(len(ids)))
	newCmap := make(map[rune]uint16, len(cmap))
	for r, id := range cmap {
		if k, ok := renum[int(id)]; ok {
			newCmap[r] = k
		}
	}

	newHead := slices.Clone(head)
	binary.BigEndian.PutUint16(newHead[50:], 1) // long offsets
	binary.BigEndian.PutUint32(newHead[8:], 0)  // checksum adjustment, set below
	out := map[string][]byte{
		"glyf": newGlyf, "loca": newLoca, "head": newHead, "cmap": cmapTable(newCmap),
		"hhea": newHhea, "hmtx": newHmtx, "maxp": newMaxp,
	}
	if post := tables["post"]; len(post) >= 32 {
		p := slices.Clone(post[:32])
		binary.BigEndian.PutUint32(p, 0x00030000) // no glyph names
		out["post"] = p
	}
	out["name"] = []byte{0, 0, 0, 0, 0, 6} // no names: the SVG names the family
	for _, tag := range []string{"OS/2"} {
		if t, ok := tables[tag]; ok {
			out[tag] = t
		}
	}
	b := writeTables(out)
	// The whole font's checksum, as the head table records it.
	for i := range len(out) {
		rec := b[12+16*i:]
		if string(rec[:4]) == "head" {
			off := binary.BigEndian.Uint32(rec[8:])
			binary.BigEndian.PutUint32(b[off+8:], 0xB1B0AFBA-checksum(b))
		}
	}
	return b, nil
}

// unhinted is a glyph without its hinting instructions (a simple glyph's are cut out, a composite's
// marked absent), a composite's components renumbered.
func unhinted(g []byte, renum map[int]uint16) []byte {
	if len(g) < 12 {
		return g
	}
	n := int(int16(binary.BigEndian.Uint16(g)))
	if n < 0 {
		out := slices.Clone(g)
		for i := 10; i+4 <= len(out); {
			flags := binary.BigEndian.Uint16(out[i:])
			binary.BigEndian.PutUint16(out[i:], flags&^0x0100) // no instructions follow
			binary.BigEndian.PutUint16(out[i+2:], renum[int(binary.BigEndian.Uint16(out[i+2:]))])
			i += 4 + componentArgs(flags)
			if flags&0x0020 == 0 {
				break
			}
		}
		return out
	}
	at := 10 + 2*n // the instructions' length
	if at+2 > len(g) {
		return g
	}
	k := int(binary.BigEndian.Uint16(g[at:]))
	if at+2+k > len(g) {
		return g
	}
	out := append(slices.Clone(g[:at]), 0, 0)
	return append(out, g[at+2+k:]...)
}

// componentArgs is how many bytes follow a composite glyph's component's flags and glyph number.
func componentArgs(flags uint16) int {
	n := 2
	if flags&0x0001 != 0 { // arguments are words
		n = 4
	}
	switch {
	case flags&0x0008 != 0: // a scale
		n += 2
	case flags&0x0040 != 0: // x and y scales
		n += 4
	case flags&0x0080 != 0: // a two by two matrix
		n += 8
	}
	return n
}

// components lists the glyphs a composite glyph is built from.
func components(g []byte) []int {
	if len(g) < 10 || int16(binary.BigEndian.Uint16(g)) >= 0 {
		return nil
	}
	var out []int
	for i := 10; i+4 <= len(g); {
		flags := binary.BigEndian.Uint16(g[i:])
		out = append(out, int(binary.BigEndian.Uint16(g[i+2:])))
		i += 4 + componentArgs(flags)
		if flags&0x0020 == 0 { // no more components
			break
		}
	}
	return out
}

// cmapTable is a character map (Windows Unicode BMP, format 4) of m: a segment a character, then the
// closing one.
func cmapTable(m map[rune]uint16) []byte {
	runes := make([]rune, 0, len(m))
	for r := range m {
		runes = append(runes, r)
	}
	slices.Sort(runes)
	segs := len(runes) + 1
	sub := make([]byte, 16+8*segs)
	be := binary.BigEndian
	be.PutUint16(sub[0:], 4)
	be.PutUint16(sub[2:], uint16(len(sub)))
	be.PutUint16(sub[6:], uint16(2*segs))
	sr, sel := binarySearch(segs)
	be.PutUint16(sub[8:], uint16(2*sr))
	be.PutUint16(sub[10:], uint16(sel))
	be.PutUint16(sub[12:], uint16(2*segs-2*sr))
	ends, starts := 14, 16+2*segs
	deltas, ranges := starts+2*segs, starts+4*segs
	for i, r := range runes {
		be.PutUint16(sub[ends+2*i:], uint16(r))
		be.PutUint16(sub[starts+2*i:], uint16(r))
		be.PutUint16(sub[deltas+2*i:], m[r]-uint16(r))
		be.PutUint16(sub[ranges+2*i:], 0)
	}
	last := len(runes)
	be.PutUint16(sub[ends+2*last:], 0xFFFF)
	be.PutUint16(sub[starts+2*last:], 0xFFFF)
	be.PutUint16(sub[deltas+2*last:], 1)
	head := []byte{0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12}
	return append(head, sub...)
}

// readTables returns a font file's tables by tag.
func readTables(b []byte) (map[string][]byte, error) {
	if len(b) < 12 {
		return nil, errors.New("font too short")
	}
	n := int(binary.BigEndian.Uint16(b[4:]))
	out := map[string][]byte{}
	for i := range n {
		rec := 12 + 16*i
		if rec+16 > len(b) {
			return nil, errors.New("table directory too short")
		}
		off, length := int(binary.BigEndian.Uint32(b[rec+8:])), int(binary.BigEndian.Uint32(b[rec+12:]))
		if off < 0 || length < 0 || off+length > len(b) {
			return nil, errors.New("table out of range")
		}
		out[string(b[rec:rec+4])] = b[off : off+length]
	}
	return out, nil
}

// writeTables writes a font file of the tables, in the order of their tags, each with its checksum.
func writeTables(t map[string][]byte) []byte {
	tags := make([]string, 0, len(t))
	for tag := range t {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	n := len(tags)
	be := binary.BigEndian
	b := make([]byte, 12+16*n)
	be.PutUint32(b, 0x00010000)
	be.PutUint16(b[4:], uint16(n))
	sr, sel := binarySearch(n)
	be.PutUint16(b[6:], uint16(16*sr))
	be.PutUint16(b[8:], uint16(sel))
	be.PutUint16(b[10:], uint16(16*n-16*sr))
	var body []byte
	for i, tag := range tags {
		data := t[tag]
		rec := b[12+16*i:]
		copy(rec, tag)
		be.PutUint32(rec[4:], checksum(data))
		be.PutUint32(rec[8:], uint32(len(b)+len(body)))
		be.PutUint32(rec[12:], uint32(len(data)))
		body = append(body, data...)
		for len(body)%4 != 0 {
			body = append(body, 0)
		}
	}
	return append(b, body...)
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

// binarySearch is the search hint a font table's header gives for n entries: the largest power of two
// no greater than n, and its base-2 logarithm.
func binarySearch(n int) (pow, log int) {
	pow = 1
	for pow*2 <= n {
		pow *= 2
		log++
	}
	return pow, log
}
