package picture

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"sortie/rules/hex"
)

// sceneFrom builds a scene from fuzz input: every 8 bytes a unit, line, mark, cloud or plot with int16
// coordinates, kinds, sides and facings taken as they come (out of range included), labels cut from
// text. A plot's path steps from hex to hex, with a jump when asked, and may repeat a hex or have none.
func sceneFrom(data []byte, text string) hex.Scene {
	s := hex.Scene{Title: text}
	words := strings.Fields(text)
	word := func(i int) string {
		if len(words) == 0 {
			return text
		}
		return words[i%len(words)]
	}
	for i := 0; i+8 <= len(data) && i < 8*200; i += 8 {
		b := data[i : i+8]
		h := hex.Hex{Q: int(int16(binary.LittleEndian.Uint16(b[1:]))), R: int(int16(binary.LittleEndian.Uint16(b[3:])))}
		switch b[0] % 6 {
		case 0, 1:
			u := hex.SceneUnit{Hex: h, Facing: hex.Dir(int8(b[5])), Faced: b[6]&1 == 1, Kind: hex.UnitKind(b[6] >> 1 % 8),
				Side: hex.Allegiance(b[7] % 4), Out: b[7]&8 != 0, Label: word(i), Notes: []string{word(i + 1), word(i + 2)}}
			if b[0]%5 == 1 {
				u.Track = []hex.Hex{h.Add(hex.Hex{Q: int(int8(b[5])), R: int(int8(b[6]))}), h.Add(hex.Hex{Q: 1, R: 0})}
			}
			s.Units = append(s.Units, u)
		case 2:
			to := h.Add(hex.Hex{Q: int(int8(b[5])), R: int(int8(b[6]))})
			s.Lines = append(s.Lines, hex.SceneLine{From: h, To: to, Kind: hex.LineKind(b[7] % 6), Hit: b[7]&8 != 0})
		case 3:
			s.Marks = append(s.Marks, hex.SceneMark{Hex: h, Kind: hex.MarkKind(b[7] % 8), Label: word(i)})
		case 4:
			s.Clouds = append(s.Clouds, h)
			if b[7]&1 == 1 {
				s.Bounds = &hex.SceneBounds{MinQ: int(int8(b[5])), MaxQ: int(int8(b[5])) + int(b[6]), MinRow: int(int8(b[7])), MaxRow: int(int8(b[7])) + 20}
			}
		case 5:
			p := hex.ScenePlan{Label: word(i), Facing: hex.Dir(int8(b[5])), Faced: b[6]&1 == 1, Legal: b[6]&2 != 0}
			at := h
			for k := range int(b[7] % 14) {
				p.Path = append(p.Path, at)
				switch step := (b[5] >> (k % 8)) & 7; {
				case step == 6 && b[6]&4 != 0:
					at = at.Add(hex.Hex{Q: int(int8(b[6])), R: int(int8(b[7]))}) // a jump
				case step < 6:
					at = at.Neighbors()[step]
				}
			}
			s.Plans = append(s.Plans, p)
		}
	}
	return s
}

// FuzzPicture draws scenes made of arbitrary coordinates, kinds and labels: no panic, no error, a PNG of
// the frame's size within the cap, every hex of the scene inside the map, the same bytes twice.
func FuzzPicture(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 3, 1, 0, 2, 5, 0, 5, 0, 2, 3, 1, 3, 9, 0, 9, 0, 0, 0, 2}, "Red 1 alt 5\nspd 3")
	f.Add([]byte{1, 0xFF, 0x7F, 0, 0x80, 7, 9, 9, 1, 0, 0x80, 0xFF, 0x7F, 0, 0, 0}, "\x00\u202e\xff <&>")
	f.Add([]byte{4, 3, 0, 3, 0, 2, 200, 1, 0, 3, 0, 3, 0, 0, 0, 0, 0, 3, 0, 3, 0, 1, 3, 2}, "stack")
	f.Add([]byte{}, "")
	f.Add([]byte{0, 1, 0, 2, 0, 3, 1, 0, 5, 1, 0, 2, 0, 0x1B, 3, 9, 5, 4, 0, 4, 0, 0x60, 6, 13, 5, 0, 0, 0, 0, 0, 0, 1}, "Red 1\nplot")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		s := sceneFrom(data, text)
		b := mustPNG(t, s)
		img := decode(t, b)
		fs, _ := loadFonts()
		shown, far := framed(&s)
		legend := legendItems(newPen(fs), &shown, len(far) > 0)
		fr := layout(&shown, func(w float64) float64 { return legendHeight(legend, w) })
		if img.Bounds().Dx() != int(fr.W) || img.Bounds().Dy() != int(fr.H) || fr.W > capW || fr.bottom-fr.top > capH+2 {
			t.Fatalf("PNG %v, frame %v×%v (map %v high)", img.Bounds().Size(), fr.W, fr.H, fr.bottom-fr.top)
		}
		for _, h := range shown.Hexes() {
			x, y := fr.centre(h)
			if math.IsNaN(x) || x < 0 || x > fr.W || y < fr.top || y > fr.bottom {
				t.Fatalf("%v drawn at (%v,%v), outside the map", h, x, y)
			}
		}
		v1 := mustSVG(t, s)
		v2, _ := SVG(s)
		if b2, _ := PNG(s); !bytes.Equal(b, b2) || v1 != string(v2) {
			t.Fatal("not deterministic")
		}
	})
}

// Coordinates at the ends of int's range are drawn, not a panic.
func TestExtremeCoordinates(t *testing.T) {
	s := hex.Scene{Units: []hex.SceneUnit{
		{Hex: hex.Hex{Q: math.MaxInt, R: math.MinInt}, Kind: hex.Aircraft, Label: "far"},
		{Hex: hex.Hex{Q: math.MinInt / 2, R: 3}, Kind: hex.Ship, Label: "farther", Track: []hex.Hex{{Q: 0, R: 0}}},
	}, Lines: []hex.SceneLine{{From: hex.Hex{Q: math.MaxInt}, To: hex.Hex{R: math.MaxInt}}},
		Plans: []hex.ScenePlan{{Label: "farthest", Path: []hex.Hex{{Q: math.MinInt, R: math.MaxInt}, {Q: 0, R: 0}, {Q: math.MaxInt / 3}}, Facing: 99, Faced: true}}}
	for _, f := range []func(hex.Scene) ([]byte, error){PNG, SVG} {
		if _, err := f(s); err != nil {
			t.Fatal(err)
		}
	}
}
