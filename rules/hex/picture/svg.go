package picture

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"math"
	"strconv"
)

// writeSVG writes the pen's recording as an SVG document of w×h pixels: an element a line, in the order
// drawn, numbers to a hundredth of a pixel, text as text in the embedded fonts (fontCSS). Nothing in it
// depends on a map's order or the time, so the same drawing gives the same bytes.
func writeSVG(p *pen, w, h float64) ([]byte, error) {
	css, err := fontCSS(p)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg version="1.1" width="%spx" height="%spx" viewBox="0 0 %s %s" xmlns="http://www.w3.org/2000/svg">`+"\n",
		num(w), num(h), num(w), num(h))
	if css != "" {
		b.WriteString("<style>" + css + "</style>\n")
	}
	for i := range p.ops {
		writeOp(&b, &p.ops[i])
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

func writeOp(b *bytes.Buffer, o *op) {
	if o.kind == opText {
		t := &o.text
		x, y := num(o.x), num(o.y)
		family, weight := fontFiles[0].family, ""
		if t.bold {
			family, weight = fontFiles[1].family, "700 "
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" style="font: %s%spx %s;fill:%s"><tspan x="%s" y="%s">`, x, y, weight, num(t.size), family, hexColour(t.colour), x, y)
		_ = xml.EscapeText(b, []byte(t.s)) // writing to a bytes.Buffer does not fail
		b.WriteString("</tspan></text>\n")
		return
	}
	b.WriteString(`<path d="`)
	pathData(b, o.p)
	b.WriteString(`"`)
	switch o.kind {
	case opFill:
		fmt.Fprintf(b, ` fill="%s"`, hexColour(o.fill))
	case opStroke, opFillStroke:
		if o.kind == opStroke {
			b.WriteString(` fill="none"`)
		} else {
			fmt.Fprintf(b, ` fill="%s"`, hexColour(o.fill))
		}
		fmt.Fprintf(b, ` stroke="%s" stroke-width="%s"`, hexColour(o.line), num(o.width))
		if o.cap == roundCap {
			b.WriteString(` stroke-linecap="round"`)
		}
		if o.join == roundJoin {
			b.WriteString(` stroke-linejoin="round"`)
		}
		if len(o.dashes) > 0 {
			b.WriteString(` stroke-dasharray="`)
			for i, d := range o.dashes {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(num(d))
			}
			b.WriteString(`"`)
		}
	}
	b.WriteString("/>\n")
}

// pathData writes a path's d attribute: circles as two arcs, the rest as lines.
func pathData(b *bytes.Buffer, p *path) {
	for _, s := range p.subs {
		if c := s.circle; c != nil {
			x, y, r := c[0], c[1], num(c[2])
			fmt.Fprintf(b, "M%s %sA%s %s 0 1 1 %s %sA%s %s 0 1 1 %s %sz", num(x+c[2]), num(y), r, r, num(x-c[2]), num(y), r, r, num(x+c[2]), num(y))
			continue
		}
		for i, q := range s.pts {
			if i == 0 {
				b.WriteByte('M')
			} else {
				b.WriteByte('L')
			}
			b.WriteString(num(q.X))
			b.WriteByte(' ')
			b.WriteString(num(q.Y))
		}
		if s.closed {
			b.WriteByte('z')
		}
	}
}

// num formats a coordinate to a hundredth, without trailing zeros. A value that is not finite (which no
// drawing makes) is written as 0, so the document stays valid.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	v = math.Round(v*100) / 100
	if v == 0 {
		return "0" // not "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func hexColour(c color.RGBA) string {
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}
