// Package picture draws a hex.Scene, one side's view of a turn, as a map picture: PNG for mail and SVG
// for anything that zooms.
package picture
