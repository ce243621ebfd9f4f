package afd

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Scenarios is the folder of bundled scenarios (ruleset.Bundled).
func (Ruleset) Scenarios() fs.FS { return bundle.Folder() }

// DefaultScenario is the scenario `sortie demo` plays (ruleset.Bundled).
func (Ruleset) DefaultScenario() string { return "channel-1940" }

// DemoOrders plays a seat in `sortie demo` (ruleset.DemoPilot): each aircraft turns toward the nearest
// enemy its report shows, a turn in the second hex toward the side the enemy is on (in an impulse game,
// a turn after three hexes). If the rules forbid
// it, the receipt says so and the demo sends the report's ready-made plots instead.
// Aircraft carrying bombs, a torpedo or rockets go for the ground instead (attackOrders).
func (Ruleset) DemoOrders(report, block string) string {
	block = scramble(block, report)
	block, done := attackOrders(block, report)
	return aggressive(block, report, done)
}

// scramble has the demo's planes on the ground open the throttle: a power factor every turn once the
// engine runs (seed 001 IV.4), until they take off.
func scramble(block, report string) string {
	running := map[string]bool{}
	current := ""
	for _, line := range strings.Split(report, "\n") {
		if m := ownLineRE.FindStringSubmatch(line); m != nil {
			current = m[1]
			continue
		}
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
			current = ""
		}
		if current != "" && strings.Contains(line, "engine running") {
			running[current] = true
		}
	}
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		if cs, order, ok := strings.Cut(l, ": "); ok && order == "IDLE" && running[cs] {
			lines[i] = cs + ": P"
		}
	}
	return strings.Join(lines, "\n")
}

var clockRE = regexp.MustCompile(`from ([A-Z0-9_-]+): (\d+) hexes at (\d+) o'clock`)

func aggressive(block, report string, skip map[string]bool) string {
	side := map[string]string{}
	best := map[string]int{}
	for _, m := range clockRE.FindAllStringSubmatch(report, -1) {
		dist, _ := strconv.Atoi(m[2])
		clock, _ := strconv.Atoi(m[3])
		if d, ok := best[m[1]]; ok && d <= dist {
			continue
		}
		best[m[1]] = dist
		switch {
		case clock >= 1 && clock <= 5:
			side[m[1]] = "TR"
		case clock >= 7 && clock <= 11:
			side[m[1]] = "TL"
		default:
			side[m[1]] = ""
		}
	}
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		cs, plot, ok := strings.Cut(l, ": ")
		if !ok || side[cs] == "" || skip[cs] {
			continue
		}
		fields := strings.Fields(plot)
		if len(fields) == 0 {
			continue
		}
		if fields[0] == ForwardsOrder && (len(fields) == 1 || !strings.HasPrefix(fields[1], "`")) {
			// An impulse game's forwards manoeuvre: three hexes ahead, then the turn.
			fields[0] = "` ` ` " + side[cs]
			lines[i] = cs + ": " + strings.Join(fields, " ")
			continue
		}
		n, err := strconv.Atoi(fields[0])
		if err != nil || n < 3 {
			continue
		}
		fields[0] = fmt.Sprintf("1 1 %s %d", side[cs], n-3)
		if n == 3 {
			fields[0] = fmt.Sprintf("1 1 %s", side[cs])
		}
		lines[i] = cs + ": " + strings.Join(fields, " ")
	}
	return strings.Join(lines, "\n")
}

// The demo's attack pilots: an aircraft carrying bombs, a torpedo or rockets heads for the nearest enemy
// ground unit or ship its report shows and attacks when its plot will bring it there: bombs when the
// target lies dead ahead as far off as its speed, a torpedo when a ship will lie 1 to 4 hexes ahead of
// the plot's end, rockets when the target will lie 1 to 3 hexes ahead.
var (
	ownLineRE    = regexp.MustCompile(`^  ([A-Z0-9_-]+) +([a-z0-9-]+): hex \(-?\d+,-?\d+\) facing \d+, ([\d,]+) ft`)
	groundLineRE = regexp.MustCompile(`^  ([A-Z0-9_-]+) +([a-z-]+), enemy: `)
	seenFromRE   = regexp.MustCompile(`seen from ([A-Z0-9_-]+): (\d+) hexes at (\d+) o'clock`)
)

type striker struct {
	typ     string
	alt     int
	loaded  bool
	rockets bool
}

type groundSighting struct {
	unit, kind  string
	dist, clock int
}

// attackers reads from a report the player's aircraft that carry something for the ground, and for each
// the enemy ground units in its sight, nearest first.
func attackers(report string) (map[string]striker, map[string][]groundSighting) {
	planes := map[string]striker{}
	seen := map[string][]groundSighting{}
	section, current, unit, kind := "", "", "", ""
	for _, line := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(line, "YOUR "):
			section = "own"
			continue
		case strings.HasPrefix(line, "ON THE GROUND"):
			section = "ground"
			continue
		case line != "" && !strings.HasPrefix(line, " "):
			section = ""
			continue
		}
		switch section {
		case "own":
			if m := ownLineRE.FindStringSubmatch(line); m != nil {
				alt, _ := strconv.Atoi(strings.ReplaceAll(m[3], ",", ""))
				current = m[1]
				planes[current] = striker{typ: m[2], alt: alt}
				continue
			}
			s, ok := planes[current]
			if !ok {
				continue
			}
			switch t := strings.TrimSpace(line); {
			case t == "loaded":
				s.loaded = true
			case strings.HasPrefix(t, "rockets: "):
				s.rockets = true
			}
			planes[current] = s
		case "ground":
			if m := groundLineRE.FindStringSubmatch(line); m != nil {
				unit, kind = m[1], m[2]
				continue
			}
			if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
				unit = "" // one of the player's own units
				continue
			}
			if m := seenFromRE.FindStringSubmatch(line); m != nil && unit != "" {
				d, _ := strconv.Atoi(m[2])
				c, _ := strconv.Atoi(m[3])
				seen[m[1]] = append(seen[m[1]], groundSighting{unit: unit, kind: kind, dist: d, clock: c})
			}
		}
	}
	for cs, s := range planes {
		if !s.loaded && !s.rockets {
			delete(planes, cs)
		}
	}
	for cs := range seen {
		sort.SliceStable(seen[cs], func(a, b int) bool { return seen[cs][a].dist < seen[cs][b].dist })
	}
	return planes, seen
}

// attackOrders rewrites the order lines of the player's attack aircraft; the others are left for the
// fighter pilots.
func attackOrders(block, report string) (string, map[string]bool) {
	planes, seen := attackers(report)
	done := map[string]bool{}
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		cs, order, ok := strings.Cut(l, ": ")
		s, attacker := planes[cs]
		if !ok || !attacker || len(seen[cs]) == 0 {
			continue
		}
		fields := strings.Fields(order)
		n, err := strconv.Atoi(fields[0])
		if err != nil {
			continue
		}
		torpedo := s.loaded && strings.HasPrefix(s.typ, "tbf")
		var tg *groundSighting
		for k := range seen[cs] {
			if g := &seen[cs][k]; !torpedo || g.kind == "ship" {
				tg = g
				break
			}
		}
		if tg == nil {
			continue
		}
		done[cs] = true
		ahead := tg.clock == 12 || tg.clock == 11 || tg.clock == 1
		attack := ""
		switch {
		case torpedo && ahead && tg.dist-n >= 1 && tg.dist-n <= 4:
			attack = "BOMB"
		case s.loaded && !torpedo && tg.clock == 12 && tg.dist == n:
			attack = "BOMB AT " + tg.unit
		case s.rockets && s.alt < 3000 && tg.clock == 12 && tg.dist-n >= 1 && tg.dist-n <= 3:
			attack = "ROCKET AT " + tg.unit
		}
		if attack != "" {
			fields[0] = fmt.Sprintf("%d %s", n, attack)
		} else if !ahead && n >= 3 {
			turn := "TR"
			if tg.clock >= 7 {
				turn = "TL"
			}
			fields[0] = fmt.Sprintf("1 1 %s %d", turn, n-3)
			if n == 3 {
				fields[0] = "1 1 " + turn
			}
		}
		lines[i] = cs + ": " + strings.Join(fields, " ")
	}
	return strings.Join(lines, "\n"), done
}
