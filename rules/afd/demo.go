package afd

import (
	"fmt"
	"io/fs"
	"regexp"
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
func (Ruleset) DemoOrders(report, block string) string { return aggressive(block, report) }

var clockRE = regexp.MustCompile(`from ([A-Z0-9_-]+): (\d+) hexes at (\d+) o'clock`)

func aggressive(block, report string) string {
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
		if !ok || side[cs] == "" {
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
