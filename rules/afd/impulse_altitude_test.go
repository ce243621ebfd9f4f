package afd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
)

// The impulse game's altitude allowance, stated here on its own (seed 001 X.D.1, X.D.2): a plane
// of initial speed S moves in S impulses (X.B.1, XII); the turn's climb (or dive) of T feet, T a
// multiple of 100, is shared among them, so each may take T/S rounded down to hundreds, and as many
// of them as the hundreds left over (the player chooses which) one hundred feet more; never more.
// The turn's T is the plain game's own limit for the plane: its card's climb for the altitude band
// (seed 000 rule 16), and a shallow dive of 200 ft a point of speed (rule 17), or the 300 ft a plane
// below its lowest flying speed must dive (house rule, docs/rulings.md) where that is more. In a half
// loop it is the steep climb or dive instead (rules 18, 19; X.E.4): 200 ft a point, a climb at most
// 1,000 ft.
type shareRule struct {
	turn, speed int
}

// lo is the hundreds every impulse may take, rem how many may take one hundred more.
func (r shareRule) lo() int  { return r.turn / 100 / r.speed }
func (r shareRule) rem() int { return r.turn / 100 % r.speed }

// most is the most one impulse may take, in feet.
func (r shareRule) most() int {
	if r.rem() > 0 {
		return (r.lo() + 1) * 100
	}
	return r.lo() * 100
}

// plan is the largest plan the rule allows, in hundreds an impulse: the first rem impulses one more.
func (r shareRule) plan() []int {
	p := make([]int, r.speed)
	for i := range p {
		p[i] = r.lo()
		if i < r.rem() {
			p[i]++
		}
	}
	return p
}

// straightBoxes is a manoeuvre of straight boxes, box i changing altitude by sign*hundreds[i]
// hundreds, ending in last ("`" for a straight box).
func straightBoxes(sign int, hundreds []int, last string) notation.Manoeuvre {
	var toks []string
	for i, h := range hundreds {
		tok := "`"
		if i == len(hundreds)-1 {
			tok = last
		}
		toks = append(toks, tok)
		if h != 0 {
			toks = append(toks, fmt.Sprintf("%+d", sign*h))
		}
	}
	return man(toks...)
}

// codes lists the problems whose code starts with prefix.
func codes(ps []Problem, prefix string) []Problem {
	var out []Problem
	for _, p := range ps {
		if strings.HasPrefix(p.Code, prefix) {
			out = append(out, p)
		}
	}
	return out
}

var (
	reAtMost = regexp.MustCompile(`at most ([\d,]+)(?: ft)? in one`)
	reShared = regexp.MustCompile(`([\d,]+)(?: ft)?(?: a turn)?,? shared among (?:the |its )?(\d+) `)
	reEach   = regexp.MustCompile(`: ([\d,]+) ft (?:each|in it)`)
	reSplit  = regexp.MustCompile(`: ([\d,]+) ft in (\d+) of them and (?:([\d,]+) ft|none) in the other (\d+)`)
)

func num(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// checkMessage checks that a refusal of too much in one impulse says the most the rule allows, the
// turn's figure, the number of impulses, and a split of the turn among them that adds up.
func checkMessage(t *testing.T, what string, msg string, r shareRule) {
	t.Helper()
	m := reAtMost.FindStringSubmatch(msg)
	sh := reShared.FindStringSubmatch(msg)
	if m == nil || sh == nil {
		t.Errorf("%s: the refusal does not say the most an impulse may take and the turn's figure: %q", what, msg)
		return
	}
	if num(m[1]) != r.most() || num(sh[1]) != r.turn || num(sh[2]) != r.speed {
		t.Errorf("%s: says at most %s of %s ft shared among %s; the rule gives at most %d of %d ft among %d: %q",
			what, m[1], sh[1], sh[2], r.most(), r.turn, r.speed, msg)
	}
	// The split it gives adds up to the turn's figure over all the impulses.
	if e := reEach.FindStringSubmatch(msg); e != nil {
		if num(e[1])*r.speed != r.turn || num(e[1]) != r.most() {
			t.Errorf("%s: %s ft in each of %d impulses is not %d ft: %q", what, e[1], r.speed, r.turn, msg)
		}
	} else if s := reSplit.FindStringSubmatch(msg); s != nil {
		hi, n, lo, k := num(s[1]), num(s[2]), num(s[3]), num(s[4])
		if hi*n+lo*k != r.turn || n+k != r.speed || hi != r.most() || hi != lo+100 {
			t.Errorf("%s: %d ft in %d and %d ft in %d impulses is not %d ft among %d: %q", what, hi, n, lo, k, r.turn, r.speed, msg)
		}
	} else {
		t.Errorf("%s: the refusal does not say how the turn's figure is split: %q", what, msg)
	}
}

// lowestFlyingSpeed is the bottom of the lowest speed range the card prints for the band; the loaded
// condition lowers only the tops of the ranges, and a manoeuvre range whose top falls below its bottom
// is gone (seed 000 rules 27, 29 as docs/rulings.md reads them).
func lowestFlyingSpeed(c *aircraft.Card, b aircraft.Band, loaded bool) int {
	if b.Maneuver == nil || loaded && c.Loaded != nil && b.Maneuver.Max-c.Loaded.SpeedPenalty < b.Maneuver.Min {
		return b.Level.Min
	}
	return b.Maneuver.Min
}

// plainLimitAgrees checks that the plain game allows a turn of exactly the figure: a plot of speed s
// climbing (sign +1) or diving (-1) by turn feet passes, and 100 ft more is refused with code.
func plainLimitAgrees(t *testing.T, what string, c *aircraft.Card, start Flight, sign, turn int, code string) {
	t.Helper()
	for _, tc := range []struct {
		feet int
		bad  bool
	}{{turn, false}, {turn + 100, true}} {
		if tc.feet == 0 {
			continue
		}
		plot, ds := notation.ParsePlot(fmt.Sprintf("%d %+d", start.Speed.Round(), sign*tc.feet/100))
		if len(ds) > 0 {
			t.Fatalf("%s: %v", what, ds)
		}
		res := Move(c, start, plot)
		if got := len(codes(res.Errors, code)) > 0; got != tc.bad {
			t.Errorf("%s: the plain game with %+d ft: refused %v, want %v (%v)", what, sign*tc.feet, got, tc.bad, res.Errors)
		}
	}
}

// TestImpulseAltitudeShareEveryCard checks seed 001 X.D.1 and X.D.2 for every bundled aircraft,
// clean and loaded, in every altitude band, at every speed from 1 to 24: the largest plan the rule
// allows is legal and adds up to the plain game's limit for the turn; one hundred feet more in any
// impulse is refused, with a message whose numbers are the rule's and add up.
func TestImpulseAltitudeShareEveryCard(t *testing.T) {
	reg := shippedCards(t)
	for _, key := range reg.Keys() {
		c, _ := reg.Card(key)
		for _, loaded := range []bool{false, true} {
			if loaded && c.Loaded == nil {
				continue
			}
			for _, band := range c.Bands {
				for s := 1; s <= 24; s++ {
					if n := len(Impulses(s)); n != s {
						t.Fatalf("speed %d moves in %d impulses; one an impulse, s in all (X.B.1)", s, n)
					}
					start := Flight{Speed: Tenths(10 * s), Alt: band.MaxAlt, Straight: Plenty, Loaded: loaded}
					applied, err := Apply(c, start)
					if err != nil {
						t.Fatal(err)
					}
					climb := band.MaxClimb // the card's figure (rule 16)
					if loaded {
						climb = applied.MaxClimb // the loaded climb (docs/rulings.md)
					}
					dive := 200 * s // rule 17
					if s < lowestFlyingSpeed(c, band, loaded) {
						dive = max(dive, 300) // the house minimum-speed dive
					}
					what := fmt.Sprintf("%s loaded=%v at %d ft speed %d", key, loaded, band.MaxAlt, s)
					plainLimitAgrees(t, what+" climb", c, start, 1, climb, "climb-limit")
					plainLimitAgrees(t, what+" dive", c, start, -1, dive, "dive-limit")
					pt := planeTurn{card: c, start: start, left: s, alt: start.Alt, engine: 1, loaded: loaded}
					for _, dir := range []struct {
						name, code string
						sign       int
						rule       shareRule
					}{{"climb", "impulse-climb", 1, shareRule{climb, s}}, {"dive", "impulse-dive", -1, shareRule{dive, s}}} {
						what := what + " " + dir.name
						r := dir.rule
						plan := r.plan()
						fc := tryManoeuvre(pt, straightBoxes(dir.sign, plan, "`"), 0)
						if ps := codes(fc.errors, "impulse-"); len(ps) > 0 {
							t.Errorf("%s: %v is within the rule, refused: %v", what, plan, ps)
						} else if got := fc.boxes[len(fc.boxes)-1].Alt - start.Alt; got != dir.sign*r.turn {
							t.Errorf("%s: the largest plan changes %d ft, want %d", what, got, dir.sign*r.turn)
						}
						// One hundred feet more in some impulse that could still take them.
						if r.rem() > 0 && r.rem() < s {
							more := append([]int(nil), plan...)
							more[s-1]++
							fc := tryManoeuvre(pt, straightBoxes(dir.sign, more, "`"), 0)
							if ps := codes(fc.errors, dir.code+"-extra"); len(ps) != 1 {
								t.Errorf("%s: %v takes one hundred more than the turn has: %v", what, more, fc.errors)
							}
						}
						// One hundred feet more than the most in one impulse.
						over := make([]int, s)
						over[0] = r.most()/100 + 1
						fc = tryManoeuvre(pt, straightBoxes(dir.sign, over, "`"), 0)
						ps := codes(fc.errors, dir.code)
						if len(ps) != 1 || ps[0].Code != dir.code {
							t.Errorf("%s: %d ft in one impulse: %v", what, over[0]*100, fc.errors)
							continue
						}
						checkMessage(t, what, ps[0].Message, r)
					}
				}
			}
		}
	}
}

// TestImpulseHalfLoopShareAddsUp: in a half loop the rate is the steep one (seed 001 X.E.4 with
// seed 000 rules 18 and 19: 200 ft a point of speed, a climb at most 1,000 ft a turn) shared among the
// impulses as X.D.1 says; the refusal of too much says so with numbers that add up (it used to give the
// card's climb as the turn's figure: "200 in one impulse at speed 4 (400 a turn shared among 4
// impulses)"), and the loop's own rule names the least an impulse of the loop must take.
func TestImpulseHalfLoopShareAddsUp(t *testing.T) {
	c := card(t, "bf-109e")
	for s := 1; s <= 24; s++ {
		for _, dir := range []struct {
			name, ing string
			sign      int
			bank      notation.Bank
			rule      shareRule
		}{{"climb", "climbing", 1, notation.BankN, shareRule{min(200*s, 1000), s}}, {"dive", "diving", -1, notation.BankI, shareRule{200 * s, s}}} {
			what := fmt.Sprintf("a half loop at speed %d, %s", s, dir.name)
			start := Flight{Speed: Tenths(10 * s), Alt: 15000, Bank: dir.bank, Straight: Plenty}
			pt := planeTurn{card: c, start: start, left: s, alt: start.Alt, bank: dir.bank, engine: 1}
			r := dir.rule
			// The loop itself in one impulse, at the most an impulse may take, then one hundred more.
			fc := tryManoeuvre(pt, straightBoxes(dir.sign, []int{r.most() / 100}, "V"), 0)
			if ps := codes(fc.errors, "impulse-"); len(ps) > 0 {
				t.Errorf("%s: %d ft is the most an impulse of the loop may take, refused: %v", what, r.most(), ps)
			}
			fc = tryManoeuvre(pt, straightBoxes(dir.sign, []int{r.most()/100 + 1}, "V"), 0)
			ps := codes(fc.errors, "impulse-"+dir.name)
			if len(ps) != 1 {
				t.Errorf("%s: %d ft in one impulse: %v", what, r.most()+100, fc.errors)
				continue
			}
			checkMessage(t, what, ps[0].Message, r)
			// A loop impulse that neither climbs nor dives is refused, naming the least an impulse takes:
			// the share rounded down, and at least 100 ft, since it must climb or dive.
			fc = tryManoeuvre(pt, straightBoxes(dir.sign, []int{0}, "V"), 0)
			ps = codes(fc.errors, "impulse-loop-rate")
			least := max(r.lo()*100, 100)
			if len(ps) != 1 || !strings.Contains(ps[0].Message, fmt.Sprintf("%s ft an impulse %s", feetText(least), dir.ing)) &&
				!strings.Contains(ps[0].Message, fmt.Sprintf("%s ft a move %s", feetText(least), dir.ing)) {
				t.Errorf("%s: a level impulse of the loop: want it refused naming %d ft: %v", what, least, fc.errors)
			}
		}
	}
}
