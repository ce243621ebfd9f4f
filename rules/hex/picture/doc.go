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
// # Framing
//
// The map frames the action: the side's own and friendly aircraft and squadrons in play, their tracks,
// the lines and the marks always; the other units and the clouds near the action, nearest first, while
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
// draw records the picture once on a github.com/tdewolff/canvas canvas; PNG rasterizes that recording
// and SVG writes it, so the two cannot drift apart. canvas was chosen over github.com/fogleman/gg with a
// separate SVG writer because:
//
//   - one drawing gives both formats; with gg every shape and every text measurement would be written
//     twice, once for gg and once for the SVG writer;
//   - text is shaped (HarfBuzz, in Go) and stays text in the SVG, so labels can be searched and checked;
//   - it is maintained (2025), where gg's last release is from 2019;
//   - both are pure Go and deterministic on one architecture; canvas replays its layers in order. Its own
//     SVG font embedding is not deterministic (fonts in map order, stamped with the time of writing), so
//     this package embeds the subset of glyphs it uses itself (fontCSS);
//   - the price is speed and weight. gg rasterized 1160 hexagons with a coordinate each in 25 ms where
//     canvas took 72 ms (58 ms with canvas.FastStroke) in the same run; this package arranges its drawing
//     for canvas (a path a column of hexes, FastStroke, whole-pixel text) and rasterizes in bands, one a
//     processor (raster.go), drawing the 100-unit benchmark picture in about 33 ms on two. canvas brings some 150 packages (its LaTeX support pulls star-tex, the Latin
//     Modern fonts and an X11 library; text pulls a Go port of FriBidi under the LGPL 2.1) and adds about
//     3 MB to the sortie binary.
//
// Text is set in the Go fonts (golang.org/x/image/font/gofont, BSD licence), embedded, so a picture
// looks the same on every machine.
//
// # Size and determinism
//
// The PNG is paletted, one byte a pixel, against one fixed palette (the drawing's colours, their blends
// with the grounds they are drawn on, a grey ramp); each pixel takes the nearest palette colour, so flat
// colours stay exact and the same drawing gives the same bytes. A 100-unit raid comes to about 100 KB.
// The same Scene gives the same bytes, PNG and SVG, on any number of processors (a band's pixels are
// those of the whole image drawn in one pass): nothing is drawn in map order, the SVG's numbers are
// canvas's fixed formatting, its fonts carry no time stamp. Floating-point arithmetic is the same on
// every machine of one architecture; where the compiler fuses multiply-adds (as on arm64), anti-aliased
// edges may differ by a shade, so the golden pictures are made on amd64.
package picture
