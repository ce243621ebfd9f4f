package afd

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
)

// The computer pilot of the plain game (docs/bots.md): for each aircraft it tries the plots a player
// would consider at its speed — straight, one or two turns or bank changes anywhere along the way, with a
// climb or a dive and power — keeps those the rules accept (CheckOrder, from the plane's own flight), and
// picks the one that scores best on the side's View alone:
//
//	score = the guns it brings to bear at the end of the turn on the best enemy (the weight of its fixed
//	        guns, more at shorter range)
//	      − ThreatWeight × the same for every enemy whose guns would bear on it
//	      − ApproachWeight × hexes to the nearest enemy's six o'clock, three hexes behind it (500 ft of
//	        height counting one hex)
//	      − HeadingWeight × how far (in 30° steps) its nose points away from that point
//	      + SpeedWeight × tenths of speed gained (negative when lost) − AltWeight × hundreds of feet lost
//
// Each enemy is assumed to fly straight on, a third of it three, five and seven hexes: the pilot reads
// only what its side's report shows of an enemy (where it is, its facing and height, its type once
// identified), not how far it really flew nor its bank (docs/operations.md, Security).
// An unidentified enemy counts as carrying two rifle-calibre machine guns.

// Weights of the plain game's evaluation.
const (
	ThreatWeight   = 1.2
	ApproachWeight = 0.1
	HeadingWeight  = 0.15
	SpeedWeight    = 0.05
	AltWeight      = 0.015
)

// gunWeight is a rough lethality of a weapon mix: rifle-calibre MGs 1, heavy MGs 2, 20 mm 4, 30 and
// 37 mm 6 each.
func gunWeight(card *aircraft.Card) float64 {
	if card == nil {
		return 2
	}
	counts, err := aircraft.ParseMix(card.FixedMix())
	if err != nil {
		return 0
	}
	w := 0.0
	for i, k := range aircraft.MixKinds {
		w += mixWeights[k] * float64(counts[i])
	}
	return w
}

var mixWeights = map[string]float64{"30M": 1, "50M": 2, "20C": 4, "30C": 6, "37C": 6}

// pilotPlots lists the movement a pilot considers at speed s: straight; one manoeuvre anywhere; two.
func pilotPlots(s int) [][]notation.Element {
	moves := []notation.Element{
		{Kind: notation.Turn, Side: notation.Right}, {Kind: notation.Turn, Side: notation.Left},
		{Kind: notation.BankTo, Bank: notation.BankRB}, {Kind: notation.BankTo, Bank: notation.BankLB},
		{Kind: notation.BankTo, Bank: notation.BankN},
	}
	build := func(parts ...any) []notation.Element {
		var out []notation.Element
		for _, p := range parts {
			switch v := p.(type) {
			case int:
				if v > 0 {
					out = append(out, notation.Element{Kind: notation.Straight, N: v})
				}
			case notation.Element:
				out = append(out, v)
			}
		}
		return out
	}
	out := [][]notation.Element{build(s)}
	for a := 0; a < s; a++ {
		for _, m := range moves {
			out = append(out, build(a, m, s-a-1))
		}
	}
	for a := 0; a < s; a++ {
		for b := 0; a+b+2 <= s; b++ {
			for _, m1 := range moves {
				for _, m2 := range moves {
					out = append(out, build(a, m1, b, m2, s-a-b-2))
				}
			}
		}
	}
	return out
}

// PilotCandidates lists the legal orders the pilot considers for a plane of the plain game.
func PilotCandidates(card *aircraft.Card, p *Plane) []notation.Order {
	f := p.Flight
	base := DefaultPlot(card, f)
	s := f.Speed.Round()
	fire := parser.Fire{Mode: parser.FireAny}
	var out []notation.Order
	try := func(pl notation.Plot) {
		o := notation.Order{Plot: pl, Fire: fire}
		if r := CheckOrder(card, f, o); r.Legal() {
			out = append(out, o)
		}
	}
	for _, els := range pilotPlots(s) {
		simple := len(els) <= 3
		alts := []int{base.Alt}
		if base.Alt == 0 && simple {
			alts = append(alts, 500, -500, -1000)
		}
		for _, alt := range alts {
			powers := []int{0}
			if simple && alt >= 0 {
				powers = append(powers, 1, 2)
			}
			for _, pw := range powers {
				try(notation.Plot{Elements: els, Alt: alt, Power: pw})
			}
		}
	}
	return out
}

type pilotTarget struct {
	at     []Flight // where it may be at the end of the turn
	weight float64
}

// pilotScore rates the end of a plot on the side's view (the evaluation above).
func pilotScore(card *aircraft.Card, p *Plane, end Flight, enemies []pilotTarget, mine float64) float64 {
	climb := end.Alt - p.Flight.Alt
	best, threat, nearest := 0.0, 0.0, 1e9
	var near Flight
	for _, e := range enemies {
		shot := 0.0
		for _, at := range e.at {
			if r, ok := fixedBears(end, climb, at); ok {
				shot += mine * float64(MaxFireRange+1-r) / float64(MaxFireRange) / float64(len(e.at))
			}
			if r, ok := fixedBears(at, 0, end); ok {
				threat += e.weight * float64(MaxFireRange+1-r) / float64(MaxFireRange) / float64(len(e.at))
			}
			// Close on its six o'clock: three hexes behind it.
			six := at
			six.Facing = at.Facing.Turn(6)
			six = ahead(six, 3)
			if d := float64(hexmap.Distance(end.Hex, six.Hex) + abs(at.Alt-end.Alt)/500); d < nearest {
				nearest, near = d, six
			}
		}
		best = max(best, shot)
	}
	score := best - ThreatWeight*threat + SpeedWeight*float64(end.Speed-p.Flight.Speed) - AltWeight*float64(max(-climb, 0))/100
	if nearest < 1e9 {
		score -= ApproachWeight * nearest
		if end.Hex != near.Hex {
			clock := hexmap.Clock(end.Hex, end.Facing, near.Hex)
			score -= HeadingWeight * float64(min(clock%12, 12-clock%12))
		}
	}
	if end.Alt < 1000 {
		score -= 5 // the ground is the deadliest enemy
	}
	return score
}

// ahead is a flight moved n hexes straight on.
func ahead(f Flight, n int) Flight {
	for i := 0; i < n; i++ {
		f.Hex, f.Phase = hexmap.Forward(f.Hex, f.Facing, f.Phase)
	}
	return f
}

// Pilot writes orders for a player's aircraft in the plain game from the side's view alone: for each,
// the best-scoring plot the rules accept, firing at will; the default plot when none scores (or the plane
// is on the ground or bound to the ground attack it was given).
func Pilot(cards Cards, v View, player string) map[string]string {
	var enemies []pilotTarget
	for _, c := range v.Enemies {
		var card *aircraft.Card
		if c.Type != "" {
			card, _ = cards.Get(c.Type)
		}
		f := Flight{Hex: c.Hex, Facing: c.Facing, Alt: c.Alt}
		at := []Flight{ahead(f, 3), ahead(f, 5), ahead(f, 7)}
		enemies = append(enemies, pilotTarget{at: at, weight: gunWeight(card)})
	}
	out := map[string]string{}
	for i := range v.Own {
		p := &v.Own[i]
		if p.Player != player || !p.InPlay() || p.Ground != nil {
			continue
		}
		card, ok := cards.Get(p.Type)
		if !ok {
			continue
		}
		if p.Flight.Loaded || p.Rockets > 0 {
			continue // bombs, a torpedo or rockets aboard: the pilot leaves the attack to its player
		}
		mine := gunWeight(card)
		cands := PilotCandidates(card, p)
		if len(cands) == 0 {
			continue
		}
		scores := make([]float64, len(cands))
		for k, o := range cands {
			scores[k] = pilotScore(card, p, CheckOrder(card, p.Flight, o).End, enemies, mine)
		}
		idx := make([]int, len(cands))
		for k := range idx {
			idx[k] = k
		}
		sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
		out[p.Callsign] = cands[idx[0]].String()
	}
	return out
}

// impulseManoeuvres are the manoeuvres the impulse pilot considers: the forwards manoeuvre, and a turn
// either way after none to three hexes ahead.
var impulseManoeuvres = []string{ForwardsOrder, "TR", "TL", "` TR", "` TL", "` ` TR", "` ` TL", "` ` ` TR", "` ` ` TL"}

var previewEndRE = regexp.MustCompile(`hex \((-?\d+),(-?\d+)\)  facing (\d+)  ([\d,]+) ft`)

// impulsePilot writes the impulse game's next manoeuvre for each of a player's aircraft waiting for one,
// from the side's view alone: each manoeuvre of impulseManoeuvres that the receipt's own check of the
// plane's order accepts (check), scored where its forecast ends as the plain game's plots are
// (pilotScore: guns brought to bear, enemy guns bearing, closing on the nearest enemy's six o'clock).
func impulsePilot(cards Cards, v View, player string, check func(unit, text string) ruleset.OrderCheck) map[string]string {
	var enemies []pilotTarget
	for _, c := range v.Enemies {
		var card *aircraft.Card
		if c.Type != "" {
			card, _ = cards.Get(c.Type)
		}
		enemies = append(enemies, pilotTarget{at: []Flight{{Hex: c.Hex, Facing: c.Facing, Alt: c.Alt}}, weight: gunWeight(card)})
	}
	out := map[string]string{}
	for i := range v.Own {
		p := &v.Own[i]
		if p.Player != player || !p.InPlay() || p.Ground != nil || !p.NeedsOrders() {
			continue
		}
		card, _ := cards.Get(p.Type)
		mine := gunWeight(card)
		best, bestScore := ForwardsOrder+" FIRE ANY", math.Inf(-1)
		for _, m := range impulseManoeuvres {
			text := m + " FIRE ANY"
			c := check(p.Callsign, text)
			if !c.OK() {
				continue
			}
			end := p.Flight
			for _, line := range c.Preview {
				if g := previewEndRE.FindStringSubmatch(line); g != nil {
					q, _ := strconv.Atoi(g[1])
					r, _ := strconv.Atoi(g[2])
					deg, _ := strconv.Atoi(g[3])
					alt, _ := strconv.Atoi(strings.ReplaceAll(g[4], ",", ""))
					end.Hex, end.Facing, end.Alt = hexmap.Hex{Q: q, R: r}, hexmap.Dir(deg/30), alt
				}
			}
			if score := pilotScore(card, p, end, enemies, mine); score > bestScore {
				best, bestScore = text, score
			}
		}
		out[p.Callsign] = best
	}
	return out
}

// PilotOrders is the computer pilot's orders for a player's aircraft (ruleset.Piloted), from the
// player's side's view only.
func (g *game) PilotOrders(player string) map[string]string {
	v := ViewOf(g.st, g.st.SideOf(player))
	if g.st.Options.Impulse {
		return impulsePilot(g.env.Cards, v, player, func(unit, text string) ruleset.OrderCheck { return g.CheckOrder(player, unit, text) })
	}
	return Pilot(g.env.Cards, v, player)
}
