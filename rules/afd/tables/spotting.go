package tables

import "math"

// Spotting modifiers from the classic game's errata (docs/rulings.md: "Spotting and fog of war";
// ), added to the spotter's 2D6. They apply to spotting and to identification.
const (
	ModSpotterInverted = -2 // the spotter is inverted (bank I, IR or IL)
	ModTowardAltitude  = +1 // the spotter is climbing toward a higher target or diving toward a lower one
	ModAwayAltitude    = -1 // the spotter is climbing away from a lower target or diving away from a higher one
)

// Spotted reports whether a spotting or identification roll succeeds: a need of 0 is automatic, with no
// roll; otherwise the 2D6 plus the modifiers must reach the need.
func Spotted(need, roll2d6, modifier int) bool {
	return need == 0 || roll2d6+modifier >= need
}

// band is a run of whole numbers from lo to hi, both included.
type band struct{ lo, hi int }

func (b band) has(n int) bool { return n >= b.lo && n <= b.hi }

const (
	openLow  = math.MinInt
	openHigh = math.MaxInt
)

// spotting is the house spotting table: needs by range band (rows) and height band (columns).
type spotting struct {
	heights     []band   // target altitude minus spotter altitude, ft
	heightNames []string // as the file names them
	ranges      []band   // hexes
	need        [][]int  // need[range][height]
}

// identification is the house identification table: a need by range band.
type identification struct {
	ranges []band
	need   []int
}

// bailOut is the house bail-out roll (docs/rulings.md: "Other rulings").
type bailOut struct {
	need           int // 1D6 per crew member, success on this or better
	penaltyBelowFt int // below this altitude the roll takes the penalty
	penalty        int // e.g. -1
	noneBelowFt    int // below this altitude no one can bail out
}

// SpotNeed is the 2D6 a spotter needs to see an enemy plane at a horizontal range in hexes, with the
// target heightDiffFt feet above the spotter (negative: below). need 0 means the plane is seen without a
// roll; a need above 12 can be met only with modifiers. possible is false when the range is beyond the
// table (or negative): the plane cannot be seen at all. Clouds are the engine's: a cloud between the two
// blocks sight outright.
func (t *Tables) SpotNeed(rangeHexes, heightDiffFt int) (need int, possible bool) {
	s := &t.spotting
	ri := -1
	for i, r := range s.ranges {
		if r.has(rangeHexes) {
			ri = i
		}
	}
	if ri < 0 {
		return 0, false
	}
	for hi, h := range s.heights {
		if h.has(heightDiffFt) {
			return s.need[ri][hi], true
		}
	}
	return 0, false // not reached: validation makes the height bands cover every number
}

// SpotHeightBand names the height band of the spotting table a height difference falls in, for
// receipts.
func (t *Tables) SpotHeightBand(heightDiffFt int) string {
	for i, h := range t.spotting.heights {
		if h.has(heightDiffFt) {
			return t.spotting.heightNames[i]
		}
	}
	return ""
}

// IdentifyNeed is the 2D6 a spotter needs to identify the type of an enemy plane it has spotted, at a
// horizontal range in hexes, with the same meaning of need and possible as SpotNeed.
func (t *Tables) IdentifyNeed(rangeHexes int) (need int, possible bool) {
	for i, r := range t.identification.ranges {
		if r.has(rangeHexes) {
			return t.identification.need[i], true
		}
	}
	return 0, false
}

// BailOutNeed is the 1D6 each crew member of a downed plane needs, or better, to bail out from altFt
// feet. With the house numbers: 2 or better; 3 or better below 1,000 ft (the −1); no bail-out below
// 500 ft, so exactly 500 ft is still possible and exactly 1,000 ft takes no penalty. possible is also
// false when a moderator's numbers make the need more than 6.
func (t *Tables) BailOutNeed(altFt int) (need int, possible bool) {
	b := t.bailOut
	if altFt < b.noneBelowFt {
		return 0, false
	}
	need = b.need
	if altFt < b.penaltyBelowFt {
		need -= b.penalty
	}
	return need, need <= 6
}
