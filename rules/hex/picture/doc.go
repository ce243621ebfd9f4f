// Package picture draws a hex.Scene, one side's view of a turn, as a map picture: PNG to attach to a
// report mail, SVG for anything that zooms. It draws exactly the scene it is given and nothing else, so a
// picture shows no more than the report it goes with (fog of war, invariant 4 in docs/architecture.md).
//
// # What a picture shows
//
// A title bar with a north arrow; the map, flat-topped hexes with north up, each hex's coordinates
// printed faintly as reports print them, "(q,r)" (every fifth column and row when the hexes are small);
// hexes off the playing area shaded, its edge drawn; clouds; each unit's track, a line through the hexes
// it flew ending in an arrow; fire, flak, bombs and torpedoes as lines from shooter to target, solid for a
// hit and dashed for a miss, each kind in its colour with its own end marker; the units as counters; the
// marks (shot down, bail-out, crash, burst, damage, exit) as badges; the labels; and a legend of just what
// the picture holds.
//
// A counter's outline tells its allegiance (own: circle, friendly: rounded square, enemy: diamond, after
// the frames of military map symbols) and its colour does too, from the Okabe–Ito palette that stays apart
// under colour blindness; its inside tells the kind: a plane pointing along its facing, a squadron's
// solid counter of three planes with a facing tick, a vehicle, a ship's hull along its facing, a target's
// bullseye, a flak gun's dome. Units out of play are drawn faded. Each hex's units share one label block
// (label in bold in the side's colour, notes beneath), put beside its counters where it covers no other
// label, counter, badge or edge marker, else at the nearest free spot further out with a thin leader
// line back to them; only a map with no free spot left puts a block where it covers least. Units
// sharing a hex are drawn as a ring of smaller counters. A hex's coordinates are printed only where they
// are whole inside the map, never cut by its edge.
//
// The plotting board's picture adds the plots being tried (Scene.Plans; a report's picture has none and
// is drawn as it was before plots existed, byte for byte): each a dashed line in the own side's colour
// from hex centre to hex centre, a dot in each hex it passes, a hollow arrow in its end hex along the
// facing it would end with (a hollow ring when that is not given) and its label beside the end; a plot
// with errors dotted in the warning colour, its label saying it has errors. Plots are drawn last on the
// map, over counters, marks and labels, and labels are placed off their lines and ends, so nothing hides
// a plot. The legend names "plot" and "plot with errors" only when one is drawn.
//
// # Framing
//
// The map frames the action: the side's own and friendly aircraft and squadrons in play, their tracks,
// the lines, the marks and the plots being tried always (a plot that leaves the area of the units is
// framed whole, and its hexes beyond the playing area are shaded as off the map); the other units and the clouds near the action, nearest first, while
// the map still fits about 1200×1300 pixels with hexes of 24 pixels or more, so coordinates stay
// legible. A unit beyond that is an edge marker: an arrow on the map's edge pointing at it from the
// side's nearest unit, labelled with its name, distance and bearing from that unit (LayoutOf lists
// it). Every hex framed lies inside the map with a margin. The hex side is chosen to keep the picture
// near 1200×1300 pixels, between 36 pixels (a small scene) and 16 (labels keep their size, so a smaller
// hex would bury the map under them); a wider spread makes the picture grow instead, up to 2800×2800,
// and only a spread beyond that shrinks the hexes further (and drops the grid when they would be a few
// pixels across). Hexes are snapped to the pixel grid (a whole even side, a whole even height, centres
// on half pixels) so that every hex covers the same pixels: grid lines are crisp and the PNG compressor
// finds them repeating. An empty scene gives a small picture that says so.
//
// # Layout
//
// draw records where it puts each counter, badge, edge marker, label, caption line, legend entry and
// coordinate as it places them, and draws from the same numbers; LayoutOf returns that record, so a test
// can check the picture it got (no words over other words or markers, nothing cut by the frame) rather
// than a second computation of it.
//
// # One drawing, two formats
//
// draw records the picture once, as a list of operations (fill a path, stroke it, both, or set a line of
// text) in pixels; PNG rasterizes that list and SVG writes it, so the two cannot drift apart. The stack is
// small and made for what a map holds (lines, polygons, circles and labels), not a general vector
// library:
//
//   - paths are straight segments (a circle is kept as a circle for the SVG and flattened to within a
//     tenth of a pixel for the PNG); a stroke is the union of a rectangle a segment, a disc or a miter
//     wedge a corner and a disc a round end, all turning the same way, so golang.org/x/image/vector, which
//     adds coverage up and caps it at full, paints each pixel once (stroke.go);
//   - the PNG is drawn straight onto its pixels on the palette, one byte a pixel, an operation at a
//     time, so no RGBA image is ever made and an operation's shapes live only while it is drawn; each
//     set of shapes is rasterized a band of 64 rows at a time on a rasterizer the size of its bounds
//     within the band, so it costs its own area, and laid on the picture through its coverage:
//     untouched where it is empty, the colour's own palette index where it is full, and between, the
//     palette colour nearest to the blend of the colour with the pixel's (raster.go);
//   - text is laid out glyph by glyph with the fonts' advances (the Go fonts have no kerning) read through
//     golang.org/x/image/font/sfnt, and each glyph rasterized once a picture for each size and quarter
//     pixel; in the SVG it stays text, so labels can be searched and checked;
//   - the SVG is written directly, an element a line, with a subset of the two fonts embedded: just the
//     glyphs used, renumbered, with no hinting or names, checksums set (svgfont.go);
//   - the PNG is written by image/png, as a paletted image at its fastest compression (png.go).
//
// It replaced github.com/tdewolff/canvas, which did all of this and much more (LaTeX, PDF, text shaping
// for every script) at the cost of some 120 of the binary's packages, about 7 MB of it, and a picture
// two to three times slower.
//
// Text is set in the Go fonts (golang.org/x/image/font/gofont, BSD licence), embedded, so a picture
// looks the same on every machine.
//
// # Size and determinism
//
// The PNG is paletted, one byte a pixel, against one fixed palette (the drawing's colours, their blends
// with the grounds they are drawn on, a grey ramp). A flat colour is drawn in its own palette colour,
// exactly; an anti-aliased edge in the palette colour nearest to its blend with the pixel beneath, read
// from a table made once a process by cells of 5 bits a channel (a few levels from the blend, where the
// palette's colours lie tens of levels apart), so the same drawing gives the same bytes. image/png writes
// it unfiltered (as it does every paletted image) at its fastest level: a 100-unit raid is about 125 KB,
// where its default level gives about 100 KB in half as much time again (docs/performance.md, Map
// pictures). The same Scene gives the same bytes, PNG and SVG, on any number of processors: nothing is
// drawn in map order, the SVG's numbers are rounded to a hundredth, its fonts carry no time stamp.
// x/image/vector gives the same coverage on every architecture; this package's own geometry is floating
// point, which, where the compiler fuses multiply-adds (as on arm64), may move an anti-aliased edge by a
// shade, so the golden pictures are made on amd64.
package picture
