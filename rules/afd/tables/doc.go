// Package tables holds the combat tables of the Air Force / Dauntless 30-degree variant (seed 000,
// "Main combat rule changes"): the 20 gunnery charts, the deflection DRMs and the hit-location tables,
// and the spotting, identification and bail-out numbers of Sortie's house rules (docs/rulings.md: "Spotting and
// fog of war", "Other rulings").
//
// The seed printed its charts as images, and the images were lost. What this package ships are HOUSE
// TABLES, built in the shape the seed describes and labelled as such (HouseLabel); they are not the
// original V30 charts. They live as YAML data files under data/, embedded in the binary, and a moderator
// may replace any section of them with a file of their own (Load, Parse). docs/tables.md explains how
// each house table was built and how to replace it.
//
// The package is pure: it reads only its embedded data or a file named to Load, it never reads the
// clock and it rolls no dice. The caller rolls and passes the numbers in.
package tables
