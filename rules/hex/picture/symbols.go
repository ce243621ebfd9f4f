package picture

import (
	"image/color"
	"math"

	"sortie/rules/hex"
)

// A unit is a counter whose outline says its allegiance (own: a circle, friendly: a rounded square,
// enemy: a diamond, after the frames of military map symbols) and whose inside says its kind.

// framePath returns the outline of a counter of radius r for an allegiance.
func framePath(a hex.Allegiance, x, y, r float64) *path {
	switch a {
	case hex.Own:
		return circle(x, y, r)
	case hex.Friendly:
		k := 0.88 * r
		return roundRect(x-k, y-k, 2*k, 2*k, 0.28*r)
	default:
		k := 1.16 * r
		return polygon(
			pt{X: x, Y: y - k}, pt{X: x + k, Y: y},
			pt{X: x, Y: y + k}, pt{X: x - k, Y: y})
	}
}

// frameReach is how far a counter's outline reaches from its centre, for ticks and arrowheads.
func frameReach(a hex.Allegiance, r float64) float64 {
	switch a {
	case hex.Own:
		return r
	case hex.Friendly:
		return 0.98 * r
	default:
		return 1.16 * r
	}
}

// The symbols inside a counter, for a radius of 1, nose up.
var (
	// planeShape is a fighter seen from above: nose, wings, tailplane.
	planeShape = mirrored(
		pt{X: 0, Y: -0.95},
		pt{X: 0.09, Y: -0.86},
		pt{X: 0.11, Y: -0.30},
		pt{X: 0.86, Y: -0.12},
		pt{X: 0.86, Y: 0.06},
		pt{X: 0.11, Y: 0.10},
		pt{X: 0.07, Y: 0.54},
		pt{X: 0.34, Y: 0.66},
		pt{X: 0.34, Y: 0.78},
		pt{X: 0.05, Y: 0.76},
		pt{X: 0, Y: 0.84},
	)
	// chevron is one plane of a squadron's formation.
	chevron = []pt{{X: 0, Y: -0.30}, {X: 0.26, Y: 0.20}, {X: 0, Y: 0.08}, {X: -0.26, Y: 0.20}}
	// hullShape is a ship from above, bow up.
	hullShape = mirrored(
		pt{X: 0, Y: -1.05},
		pt{X: 0.2, Y: -0.62},
		pt{X: 0.3, Y: -0.1},
		pt{X: 0.28, Y: 0.62},
		pt{X: 0.2, Y: 0.82},
	)
	// bridgeShape is the ship's superstructure.
	bridgeShape = []pt{{X: -0.13, Y: -0.3}, {X: 0.13, Y: -0.3}, {X: 0.13, Y: 0.25}, {X: -0.13, Y: 0.25}}
	// arrowShape is an arrowhead, tip at the origin, pointing up.
	arrowShape = []pt{{X: 0, Y: 0}, {X: 0.5, Y: 1.25}, {X: 0, Y: 0.95}, {X: -0.5, Y: 1.25}}
)

// drawUnit draws a unit's counter of radius r centred on (x, y) in colours c.
func drawUnit(p *pen, u *hex.SceneUnit, c sideColours, x, y, r float64) {
	frame := framePath(u.Side, x, y, r)
	lw := max(1.2, 0.12*r)
	deg := float64(u.Facing.Degrees())
	if u.Kind == hex.Squadron {
		p.fillStroke(frame, c.main, c.dark, lw)
	} else {
		p.fillStroke(frame, c.tint, c.main, lw)
	}
	switch u.Kind {
	case hex.Aircraft:
		if u.Faced {
			p.fill(polygon(shape(planeShape, x, y, 0.92*r, deg)...), c.dark)
		} else {
			// Seen from the front: no heading to suggest.
			p.fill(rect(x-0.8*r, y-0.07*r, 1.6*r, 0.14*r), c.dark)
			p.fill(circle(x, y, 0.2*r), c.dark)
			p.fill(polygon(pt{X: x - 0.07*r, Y: y}, pt{X: x, Y: y - 0.5*r}, pt{X: x + 0.07*r, Y: y}), c.dark)
		}
	case hex.Squadron:
		if !u.Faced {
			deg = 0
		}
		light := white
		if u.Out {
			light = fade(white)
		}
		for _, at := range [][2]float64{{0, -0.36}, {-0.42, 0.26}, {0.42, 0.26}} {
			o := shape([]pt{{X: at[0], Y: at[1]}}, x, y, r, deg)[0]
			if u.Faced {
				p.fill(polygon(shape(chevron, o.X, o.Y, r, deg)...), light)
			} else {
				p.fill(circle(o.X, o.Y, 0.16*r), light) // no heading to suggest
			}
		}
	case hex.Ground:
		p.stroke(roundRect(x-0.62*r, y-0.32*r, 1.24*r, 0.64*r, 0.32*r), c.dark, max(1.2, 0.14*r))
		p.fill(circle(x, y, 0.15*r), c.dark)
	case hex.Ship:
		hull := hullShape
		if !u.Faced {
			// Pointed at both ends and lying east–west: no heading to suggest.
			hull, deg = mirrored(pt{X: 0, Y: -1}, pt{X: 0.28, Y: -0.5}, pt{X: 0.28, Y: 0.5}, pt{X: 0, Y: 1}), 90
		}
		p.fill(polygon(shape(hull, x, y, 0.9*r, deg)...), c.dark)
		p.fill(polygon(shape(bridgeShape, x, y, 0.9*r, deg)...), c.tint)
	case hex.Target:
		p.stroke(circle(x, y, 0.55*r), c.dark, max(1.2, 0.13*r))
		p.fill(circle(x, y, 0.17*r), c.dark)
		cross := &path{}
		for _, v := range [][2]float64{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			cross.MoveTo(x+0.3*r*v[0], y+0.3*r*v[1])
			cross.LineTo(x+0.85*r*v[0], y+0.85*r*v[1])
		}
		p.stroke(cross, c.dark, max(1, 0.1*r))
	case hex.Flak:
		// A gun dome with two barrels, after the air-defence arc of map symbols.
		dome := &path{}
		dome.MoveTo(x-0.55*r, y+0.4*r)
		dome.arcTo(x, y+0.4*r, 0.55*r, 0.55*r, math.Pi, 2*math.Pi)
		dome.Close()
		p.fill(dome, c.dark)
		barrels := &path{}
		barrels.MoveTo(x-0.12*r, y-0.1*r)
		barrels.LineTo(x-0.42*r, y-0.68*r)
		barrels.MoveTo(x+0.12*r, y-0.1*r)
		barrels.LineTo(x+0.42*r, y-0.68*r)
		p.stroke(barrels, c.dark, max(1.2, 0.16*r))
	}
	// A counter that does not turn with its facing shows it by a tick on its rim.
	if u.Faced && (u.Kind == hex.Squadron || u.Kind == hex.Ground) {
		dx, dy := bearing(deg)
		reach := frameReach(u.Side, r)
		tick := polyline(
			pt{X: x + dx*reach, Y: y + dy*reach},
			pt{X: x + dx*(reach+0.5*r), Y: y + dy*(reach+0.5*r)})
		p.strokeCap(tick, c.dark, max(2, 0.22*r), roundCap)
	}
}

// drawMark draws a mark's badge of radius m centred on (x, y).
func drawMark(p *pen, k hex.MarkKind, x, y, m float64) {
	p.fillStroke(circle(x, y, m), white, ink, 1)
	i := 0.72 * m // the icon's radius inside the badge
	switch k {
	case hex.ShotDown:
		p.fillStroke(star(x, y, i, 0.45*i, 8), yellow, ink, 0.8)
	case hex.BailOut:
		canopy := &path{}
		canopy.MoveTo(x-i, y-0.05*i)
		canopy.arcTo(x, y-0.05*i, i, 0.9*i, math.Pi, 2*math.Pi)
		canopy.Close()
		p.fill(canopy, ink)
		lines := polyline(pt{X: x - i, Y: y - 0.05*i}, pt{X: x, Y: y + 0.85*i}, pt{X: x + i, Y: y - 0.05*i})
		lines.MoveTo(x, y-0.05*i)
		lines.LineTo(x, y+0.85*i)
		p.stroke(lines, ink, 0.9)
	case hex.Crash:
		cross := polyline(pt{X: x - 0.7*i, Y: y - 0.7*i}, pt{X: x + 0.7*i, Y: y + 0.7*i})
		cross.MoveTo(x+0.7*i, y-0.7*i)
		cross.LineTo(x-0.7*i, y+0.7*i)
		p.stroke(cross, ink, max(1.8, 0.38*i))
	case hex.Burst:
		p.fill(circle(x, y, 0.45*i), orange)
		p.stroke(circle(x, y, 0.85*i), orange, max(1.2, 0.22*i))
	case hex.Damaged:
		tri := polygon(pt{X: x, Y: y - i}, pt{X: x + i, Y: y + 0.72*i}, pt{X: x - i, Y: y + 0.72*i})
		p.fill(tri, ink)
		p.fill(rect(x-0.1*i, y-0.45*i, 0.2*i, 0.65*i), yellow)
		p.fill(rect(x-0.1*i, y+0.32*i, 0.2*i, 0.2*i), yellow)
	case hex.Exit:
		arrow := polyline(pt{X: x - 0.85*i, Y: y}, pt{X: x + 0.45*i, Y: y})
		p.stroke(arrow, ink, max(1.4, 0.26*i))
		p.fill(polygon(pt{X: x + 0.85*i, Y: y}, pt{X: x + 0.3*i, Y: y - 0.5*i}, pt{X: x + 0.3*i, Y: y + 0.5*i}), ink)
		p.fill(rect(x+0.85*i, y-0.85*i, 0.2*i, 1.7*i), ink)
	}
}

// star returns an n-pointed star.
func star(x, y, outer, inner float64, n int) *path {
	pts := make([]pt, 0, 2*n)
	for k := 0; k < 2*n; k++ {
		r := outer
		if k%2 == 1 {
			r = inner
		}
		dx, dy := bearing(float64(k) * 180 / float64(n))
		pts = append(pts, pt{X: x + r*dx, Y: y + r*dy})
	}
	return polygon(pts...)
}

// lineEnd draws the marker at the target end of a line: each kind has its own, filled for a hit and
// hollow for a miss. (dx, dy) is the line's direction.
func lineEnd(p *pen, k hex.LineKind, hit bool, x, y, dx, dy float64, c color.RGBA) {
	in := c
	if !hit {
		in = paper
	}
	deg := math.Atan2(dx, -dy) * 180 / math.Pi
	switch k {
	case hex.Fire:
		p.fillStroke(polygon(shape(arrowShape, x, y, 8, deg)...), in, c, 1.2)
	case hex.FlakFire:
		p.fillStroke(star(x, y, 6.5, 2.8, 4), in, c, 1.2)
	case hex.Bombing:
		p.fillStroke(circle(x, y, 4.5), in, c, 1.6)
	default: // a torpedo's run ends on a bar across it
		bar := polyline(pt{X: x - 6*dy, Y: y + 6*dx}, pt{X: x + 6*dy, Y: y - 6*dx})
		p.stroke(bar, c, 3)
	}
}
