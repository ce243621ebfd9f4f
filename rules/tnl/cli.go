package tnl

// The Thunderbolt & Lightning calculator (seed 003): calc move flies a phase or a turn, calc fire throws
// an attack's coloured dice, calc save makes the saving rolls and applies the damage ladder, calc
// initiative orders units by their 2D6, calc ship makes a dive-bombing or torpedo attack, calc aa an AA
// battery's fire, calc sheet shows a type's stat sheet and how it was worked out.

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"sortie/rules/ruleset"
	"sortie/rules/tnl/notation"
)

// CalcCommands are the calculator's subcommands (ruleset.Calculator).
func (Ruleset) CalcCommands() []ruleset.Command {
	return []ruleset.Command{
		{Name: "move", Synopsis: "fly a phase or a whole turn's plot and show it hex by hex (--help)", Run: calcMove},
		{Name: "fire", Synopsis: "an attack's coloured dice against the range (--help)", Run: calcFire},
		{Name: "save", Synopsis: "saving rolls against hits, and the damage ladder (--help)", Run: calcSave},
		{Name: "initiative", Synopsis: "units in move order from their 2D6 (--help)", Run: calcInitiative},
		{Name: "ship", Synopsis: "a dive-bombing or torpedo attack on a ship (--help)", Run: calcShip},
		{Name: "aa", Synopsis: "an AA battery's dice and hits (--help)", Run: calcAA},
		{Name: "sheet", Synopsis: "a type's stat sheet and the figures it comes from (--help)", Run: calcSheet},
	}
}

func sheetFlag(key string) (*Sheet, error) {
	d, err := DefaultData()
	if err != nil {
		return nil, err
	}
	sh, ok := d.Sheet(key)
	if !ok {
		return nil, ruleset.Usagef("--type: unknown type %q (known: %s)", key, strings.Join(d.Keys(), ", "))
	}
	return sh, nil
}

func dieList(flagName, s string) ([]int, error) {
	var out []int
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > 6 {
			return nil, ruleset.Usagef("%s: %q is not a D6", flagName, part)
		}
		out = append(out, n)
	}
	return out, nil
}

const calcMoveHelp = `sortie calc move --ruleset tnl: fly one movement phase, or a whole turn, and show it hex by hex.

  --type KEY      the aircraft type (required): its speed and fly-straight rating
  --plot "PLOT"   one phase ("2 TL 6 HL") or a turn ("DIVE 2 TL 5 / 7")
  --phase N       for one phase: which, 1 or 2 (default 1)
  --speed N       hexes flown in the last phase (default: the sheet's speed for the phase)
  --level L       VL, L, M or H (default M)
  --facing D      degrees, 0 60 ... 300 (default 0)
  --hits N        hits already suffered
  --training T    very-green, poor, trained, veteran, ace, multi-ace
  --agile         the pilot has the agile skill
  --inverted      the aircraft starts the turn inverted
  --load L        it still carries its 1000lb, 500lb or torpedo (for BOMB and TORPEDO; none by default)
  --loaded-modifiers  the scenario plays the loaded modifiers (a loaded fighter turns and flies slower)
  --dive-run      it dived from Medium last turn and may dive-bomb from Low
  --json          one JSON object

The start hex is q=0, r=0. Exit status 1 when the plot is illegal, 2 for a usage error.
`

type moveJSON struct {
	Legal     bool                  `json:"legal"`
	Errors    []ruleset.CalcProblem `json:"errors"`
	Canonical string                `json:"canonical"`
	FS        int                   `json:"fs"`
	Phases    []phaseJSON           `json:"phases"`
	Level     string                `json:"level"`
}

type phaseJSON struct {
	Phase    int          `json:"phase"`
	Hexes    int          `json:"hexes"`
	MinSpeed int          `json:"min_speed"`
	MaxSpeed int          `json:"max_speed"`
	Steps    []StepResult `json:"steps"`
	End      Pos          `json:"end"`
}

func calcMove(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc move", flag.ContinueOnError)
	typeKey := fs.String("type", "", "")
	plot := fs.String("plot", "", "")
	phase := fs.Int("phase", 1, "")
	speed := fs.Int("speed", 0, "")
	level := fs.String("level", "M", "")
	facing := fs.Int("facing", 0, "")
	hits := fs.Int("hits", 0, "")
	training := fs.String("training", "trained", "")
	agile := fs.Bool("agile", false, "")
	inverted := fs.Bool("inverted", false, "")
	load := fs.String("load", "", "")
	loadedMods := fs.Bool("loaded-modifiers", false, "")
	diveRun := fs.Bool("dive-run", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc move", calcMoveHelp, "(is the plot quoted? --plot \"2 TL 6 HL\")", stdout); done || err != nil {
		return err
	}
	if *typeKey == "" || strings.TrimSpace(*plot) == "" {
		return ruleset.Usagef("calc move: --type and --plot are required, e.g. --type spitfire-i --plot \"2 TL 6 HL\"")
	}
	sh, err := sheetFlag(*typeKey)
	if err != nil {
		return err
	}
	lvl, ok := ParseLevel(*level)
	if !ok {
		return ruleset.Usagef("--level is VL, L, M or H, got %q", *level)
	}
	dir, ok := facingOf(*facing)
	if !ok {
		return ruleset.Usagef("--facing is 0, 60, 120, 180, 240 or 300, got %d", *facing)
	}
	if *phase != 1 && *phase != 2 {
		return ruleset.Usagef("--phase is 1 or 2, got %d", *phase)
	}
	if _, ok := Trainings[*training]; !ok {
		return ruleset.Usagef("--training is %s, got %q", strings.Join(TrainingNames, ", "), *training)
	}
	if *hits < 0 || *hits >= sh.Hits {
		return ruleset.Usagef("--hits is 0 to %d for the %s, got %d", sh.Hits-1, sh.Name, *hits)
	}
	switch *load {
	case "", "none", "1000lb", "500lb", "torpedo":
	default:
		return ruleset.Usagef("--load is 1000lb, 500lb or torpedo, got %q", *load)
	}
	a := &Aircraft{Callsign: "the " + sh.Name, Type: sh.Key, Level: lvl, Facing: dir, Inverted: *inverted, Hits: *hits, Training: *training,
		Load: *load, Loaded: *load != "" && *load != "none", DiveRun: *diveRun, Status: Flying}
	if *agile {
		a.Skills = []string{SkillAgile}
	}
	single := !strings.Contains(*plot, "/")
	text := *plot
	if single {
		text += " / 1"
	}
	out := moveJSON{Errors: []ruleset.CalcProblem{}, Phases: []phaseJSON{}, FS: FS(sh, a, *loadedMods), Level: lvl.String()}
	o, ds := notation.Parse(text)
	ruleset.CalcDiagnosed(&out.Errors, nil, ds)
	if len(out.Errors) == 0 && len(o.Segments) > 1 {
		out.Errors = append(out.Errors, ruleset.CalcProblem{Code: "segment", Message: "the calculator flies one aircraft: leave out the ; plots"})
	}
	if len(out.Errors) == 0 {
		seg := o.Segments[0]
		ph0 := 0
		if single {
			ph0 = *phase - 1
		}
		a.Speed = *speed
		if a.Speed == 0 {
			a.Speed = sh.SP[ph0]
		}
		if single {
			out.Canonical = strings.TrimSuffix(strings.TrimSuffix(seg.String(), " "+seg.Fire.String()), " / 1")
			lo, hi := SpeedRange(sh, a, ph0, a.Speed, *loadedMods)
			r := FlyPhase(Pos{Facing: dir, Inverted: *inverted}, 0, seg.Phases[0], out.FS)
			for _, e := range r.Errors {
				out.Errors = append(out.Errors, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col})
			}
			if r.Hexes < lo || r.Hexes > hi {
				out.Errors = append(out.Errors, ruleset.CalcProblem{Code: "speed", Message: fmt.Sprintf("the plot uses %d hexes of speed; the %s may fly %d to %d in phase %d having flown %d", r.Hexes, sh.Name, lo, hi, ph0+1, a.Speed)})
			}
			out.Phases = append(out.Phases, phaseJSON{Phase: ph0 + 1, Hexes: r.Hexes, MinSpeed: lo, MaxSpeed: hi, Steps: r.Steps, End: r.End})
		} else {
			out.Canonical = seg.String()
			// The plot and the attack's load and height, checked as the receipt checks them (the
			// calculator knows no ships to name).
			pc := CheckPlot(sh, a, seg, *loadedMods)
			for _, e := range append(pc.Errors, LoadProblems(a, seg, pc.Level)...) {
				out.Errors = append(out.Errors, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col})
			}
			prev := a.Speed
			for ph, r := range pc.Phases {
				lo, hi := SpeedRange(sh, a, ph, prev, *loadedMods)
				mod := AltMod(sh, seg.Alt, ph)
				out.Phases = append(out.Phases, phaseJSON{Phase: ph + 1, Hexes: r.Hexes, MinSpeed: lo + mod, MaxSpeed: hi + mod, Steps: r.Steps, End: r.End})
				prev = max(pc.Bases[ph], 1)
			}
			out.Level = pc.Level.String()
		}
	}
	out.Legal = len(out.Errors) == 0
	if *asJSON {
		if err := ruleset.WriteJSON(stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s: speed %d/%d, fly-straight %d, at %s, facing %03d\n", sh.Name, sh.SP[0], sh.SP[1], out.FS, lvl, *facing)
		if out.Canonical != "" {
			fmt.Fprintf(stdout, "Read as: %s\n", out.Canonical)
		}
		for _, p := range out.Phases {
			fmt.Fprintf(stdout, "Phase %d: %d hexes of speed (may fly %d to %d)\n", p.Phase, p.Hexes, p.MinSpeed, p.MaxSpeed)
			for _, s := range p.Steps {
				fmt.Fprintf(stdout, "  %-4s hex %s facing %s%s\n", s.Token, s.Hex, s.Facing, invText(s.Inverted))
			}
			fmt.Fprintf(stdout, "  ends in hex %s facing %s%s\n", p.End.Hex, p.End.Facing, invText(p.End.Inverted))
		}
		if !single {
			fmt.Fprintf(stdout, "Level after the turn: %s\n", out.Level)
		}
		ruleset.WriteVerdict(stdout, out.Legal, nil, out.Errors)
	}
	return ruleset.Verdict(out.Legal)
}

const calcFireHelp = `sortie calc fire --ruleset tnl: an attack's coloured dice against the range.

  --range N           hexes to the target (the same hex is 1)
  --white D,D,...     the white dice thrown (machine guns); likewise --red, --green, --blue
  --pivot             the white dice are single machine guns on a pivot mount (-1)
  --inverted          the firer is inverted (-1)
  --training T        very-green or poor: -1
  --aim               the pilot has the +1 to hit skill
  --gunsight G        gyro (+1) or radar (+2): the pilot's fixed guns only
  --flexible          the dice are flexible mounts' (the gun sight does not serve them)
  --json              one JSON object

Each die hits when it reaches the range plus one, after the modifiers.
`

type fireJSON struct {
	Range  int            `json:"range"`
	Need   int            `json:"need"`
	Groups []GroupDetail  `json:"groups"`
	Hits   map[string]int `json:"hits"`
	Total  int            `json:"total"`
}

func calcFire(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc fire", flag.ContinueOnError)
	rng := fs.Int("range", 0, "")
	var colours [4]*string
	for c := White; c <= Blue; c++ {
		colours[c] = fs.String(c.String(), "", "")
	}
	pivot := fs.Bool("pivot", false, "")
	inverted := fs.Bool("inverted", false, "")
	training := fs.String("training", "trained", "")
	aim := fs.Bool("aim", false, "")
	sight := fs.String("gunsight", "", "")
	flexible := fs.Bool("flexible", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc fire", calcFireHelp, "", stdout); done || err != nil {
		return err
	}
	if *rng < 1 || *rng > 30 {
		return ruleset.Usagef("--range is 1 to 30 hexes, got %d", *rng)
	}
	if _, ok := Trainings[*training]; !ok {
		return ruleset.Usagef("--training is %s, got %q", strings.Join(TrainingNames, ", "), *training)
	}
	if *sight != "" && *sight != "gyro" && *sight != "radar" {
		return ruleset.Usagef("--gunsight is gyro or radar, got %q", *sight)
	}
	th := ToHit{Range: *rng, Inverted: *inverted, Training: *training, Aim: *aim, Gunsight: *sight}
	if *flexible {
		th.Gunsight = "" // as the turn reads a flexible mount (groupsAt)
	}
	out := fireJSON{Range: *rng, Need: th.Need(), Hits: map[string]int{}, Groups: []GroupDetail{}}
	any := false
	for c := Blue; c >= White; c-- {
		ds, err := dieList("--"+c.String(), *colours[c])
		if err != nil {
			return err
		}
		if len(ds) == 0 {
			continue
		}
		any = true
		t := th
		t.Pivot = *pivot && c == White
		g := GroupDetail{Colour: c, Pivot: t.Pivot, Need: t.Need(), Rolls: ds}
		for _, v := range ds {
			if Hits(v, g.Need) {
				g.Hits++
			}
		}
		out.Hits[c.String()] = g.Hits
		out.Total += g.Hits
		out.Groups = append(out.Groups, g)
	}
	if !any {
		return ruleset.Usagef("calc fire: give the dice thrown, e.g. --white 2,2,5,6")
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "Range %d: each die needs %d or more before modifiers\n", *rng, *rng+1)
	for _, g := range out.Groups {
		p := ""
		if g.Pivot {
			p = " on a pivot mount"
		}
		fmt.Fprintf(stdout, "  %d %s%s needing %d: %s: %d %s hit%s\n", len(g.Rolls), g.Colour, p, g.Need, ints(g.Rolls), g.Hits, g.Colour, plural(g.Hits))
	}
	fmt.Fprintf(stdout, "%d hit%s in all.\n", out.Total, plural(out.Total))
	return nil
}

const calcSaveHelp = `sortie calc save --ruleset tnl: saving rolls against hits, and what the hits suffered do.

  --hits C,C,...      the colour of each hit: white, red, green, blue
  --dice D,D,...      one saving roll per hit
  --type KEY          the aircraft hit: its saving roll, its damage ladder and its sheet
  --sr N              the saving roll, without --type
  --before N          hits it had suffered before (default 0)
  --lucky             the pilot hit has the +1 save skill
  --deadly            the pilot who hit has the -1 to saves skill
  --json              one JSON object
`

type saveJSON struct {
	SR       int          `json:"sr"`
	Saves    []SaveDetail `json:"saves"`
	Saved    int          `json:"saved"`
	Suffered int          `json:"suffered"`
	Hits     int          `json:"hits_now"`
	FS       int          `json:"fs,omitempty"`
	Speed    [2]int       `json:"speed,omitempty"`
	Gone     bool         `json:"destroyed"`
}

func calcSave(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc save", flag.ContinueOnError)
	hitsText := fs.String("hits", "", "")
	diceText := fs.String("dice", "", "")
	typeKey := fs.String("type", "", "")
	srFlag := fs.Int("sr", 0, "")
	before := fs.Int("before", 0, "")
	lucky := fs.Bool("lucky", false, "")
	deadly := fs.Bool("deadly", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc save", calcSaveHelp, "", stdout); done || err != nil {
		return err
	}
	var colours []Colour
	for _, w := range strings.Split(*hitsText, ",") {
		if strings.TrimSpace(w) == "" {
			continue
		}
		c, ok := ParseColour(w)
		if !ok {
			return ruleset.Usagef("--hits: %q is not white, red, green or blue", w)
		}
		colours = append(colours, c)
	}
	if len(colours) == 0 {
		return ruleset.Usagef("calc save: --hits is required, e.g. --hits white,white")
	}
	rolls, err := dieList("--dice", *diceText)
	if err != nil {
		return err
	}
	if len(rolls) != len(colours) {
		return ruleset.Usagef("--dice: %d hit%s, so %d saving roll%s; %d given", len(colours), plural(len(colours)), len(colours), plural(len(colours)), len(rolls))
	}
	var sh *Sheet
	sr := *srFlag
	if *typeKey != "" {
		if sh, err = sheetFlag(*typeKey); err != nil {
			return err
		}
		if sr == 0 {
			sr = sh.SR
		}
		if *before < 0 || *before >= sh.Hits {
			return ruleset.Usagef("--before is 0 to %d for the %s", sh.Hits-1, sh.Name)
		}
	}
	if sr < 2 || sr > 6 {
		return ruleset.Usagef("give --type or --sr (2 to 6)")
	}
	out := saveJSON{SR: sr, Saves: []SaveDetail{}, Hits: *before}
	capacity := 2
	if sh != nil {
		capacity = sh.Hits
	}
	for i, c := range colours {
		sv := Save{SR: sr, Colour: c, Lucky: *lucky, Deadly: *deadly}
		d := SaveDetail{Colour: c, Mod: sv.Mod(), Roll: rolls[i], Saved: sv.Saved(rolls[i])}
		if d.Saved {
			out.Saved++
		} else if !out.Gone {
			out.Suffered++
			out.Hits++
			d.Effect = HitText(capacity, out.Hits)
			out.Gone = Effects(capacity, out.Hits).Destroyed
		}
		out.Saves = append(out.Saves, d)
	}
	if sh != nil {
		a := &Aircraft{Hits: out.Hits, Training: "trained"}
		out.FS = FS(sh, a, false)
		out.Speed = [2]int{PhaseMax(sh, a, 0, false), PhaseMax(sh, a, 1, false)}
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "Saving roll %d+\n", sr)
	for _, s := range out.Saves {
		res := "saved"
		if !s.Saved {
			res = "not saved: " + s.Effect
			if s.Effect == "" {
				res = "not saved"
			}
		}
		fmt.Fprintf(stdout, "  %s hit: rolled %d%+d: %s\n", s.Colour, s.Roll, s.Mod, res)
	}
	fmt.Fprintf(stdout, "%d saved, %d suffered.\n", out.Saved, out.Suffered)
	if sh != nil {
		if out.Gone {
			fmt.Fprintf(stdout, "The %s is destroyed.\n", sh.Name)
		} else {
			fmt.Fprintf(stdout, "The %s now: fly-straight %d, speed %d/%d, %d hit%s of %d.\n", sh.Name, out.FS, out.Speed[0], out.Speed[1], out.Hits, plural(out.Hits), sh.Hits)
		}
	}
	return nil
}

const calcInitiativeHelp = `sortie calc initiative --ruleset tnl: units in move order from their 2D6 (lowest first).

  --rolls U=N,U=N,...     each unit's 2D6 total (2 to 12)
  --ties U=N,...          the re-rolled totals of units that tied
  --json                  one JSON object
`

type initJSON struct {
	Order []string       `json:"order"`
	Rolls map[string]int `json:"rolls"`
	Ties  []string       `json:"tied,omitempty"` // units that tie and still need a re-roll
	Tie   map[string]int `json:"tie_rolls,omitempty"`
}

func pairs(flagName, s string) (map[string]int, []string, error) {
	out := map[string]int{}
	var names []string
	for _, p := range strings.Split(s, ",") {
		if strings.TrimSpace(p) == "" {
			continue
		}
		k, v, ok := strings.Cut(p, "=")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		k = strings.TrimSpace(k)
		if !ok || err != nil || k == "" || n < 2 || n > 12 {
			return nil, nil, ruleset.Usagef("%s: %q is not UNIT=TOTAL with a 2D6 total of 2 to 12", flagName, p)
		}
		if _, dup := out[k]; dup {
			return nil, nil, ruleset.Usagef("%s: %s is given twice", flagName, k)
		}
		out[k] = n
		names = append(names, k)
	}
	return out, names, nil
}

func calcInitiative(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc initiative", flag.ContinueOnError)
	rollsText := fs.String("rolls", "", "")
	tiesText := fs.String("ties", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc initiative", calcInitiativeHelp, "", stdout); done || err != nil {
		return err
	}
	rolls, names, err := pairs("--rolls", *rollsText)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return ruleset.Usagef("calc initiative: --rolls is required, e.g. --rolls HE111=7,BF109-A=3")
	}
	ties, _, err := pairs("--ties", *tiesText)
	if err != nil {
		return err
	}
	count := map[int]int{}
	for _, n := range names {
		count[rolls[n]]++
	}
	out := initJSON{Rolls: rolls}
	for _, n := range names {
		if count[rolls[n]] > 1 {
			if _, ok := ties[n]; !ok {
				out.Ties = append(out.Ties, n)
			}
		}
	}
	if len(ties) > 0 {
		out.Tie = ties
	}
	order := append([]string(nil), names...)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if rolls[a] != rolls[b] {
			return rolls[a] < rolls[b]
		}
		if ties[a] != ties[b] {
			return ties[a] < ties[b]
		}
		return a < b
	})
	out.Order = order
	if *asJSON {
		return ruleset.WriteJSON(stdout, out)
	}
	for i, n := range order {
		t := ""
		if v, ok := ties[n]; ok {
			t = fmt.Sprintf(" (tie re-rolled: %d)", v)
		}
		fmt.Fprintf(stdout, "%d. %s rolled %d%s\n", i+1, n, rolls[n], t)
	}
	if len(out.Ties) > 0 {
		fmt.Fprintf(stdout, "Tied and not yet re-rolled (give --ties): %s\n", strings.Join(out.Ties, ", "))
	}
	return nil
}

const calcShipHelp = `sortie calc ship --ruleset tnl: a dive-bombing or torpedo attack on a ship.

  --attack bomb|torpedo
  --die N            the attack's D6
  bomb:    --level L|VL (release height), --side-on, --chased, --load 1000lb|500lb
  torpedo: --range N (5 to 20), --clock N (where the aircraft is seen from the ship, 12 = dead ahead),
           --chased, --both (the ship is attacked from both sides this phase)
  --json             one JSON object
`

type shipJSON struct {
	Attack string `json:"attack"`
	Need   int    `json:"need"`
	Mod    int    `json:"mod"`
	Die    int    `json:"die"`
	Hit    bool   `json:"hit"`
	Points int    `json:"damage_points"`
	Aspect string `json:"aspect,omitempty"`
}

func calcShip(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc ship", flag.ContinueOnError)
	kind := fs.String("attack", "", "")
	die := fs.Int("die", 0, "")
	level := fs.String("level", "L", "")
	sideOn := fs.Bool("side-on", false, "")
	chased := fs.Bool("chased", false, "")
	load := fs.String("load", "1000lb", "")
	rng := fs.Int("range", 0, "")
	clock := fs.Int("clock", 3, "")
	both := fs.Bool("both", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc ship", calcShipHelp, "", stdout); done || err != nil {
		return err
	}
	if *die < 1 || *die > 6 {
		return ruleset.Usagef("--die is the attack's D6, 1 to 6")
	}
	out := shipJSON{Attack: *kind, Die: *die}
	switch *kind {
	case "bomb":
		lvl, ok := ParseLevel(*level)
		if !ok || lvl > Low {
			return ruleset.Usagef("--level: bombs are released at L or VL, got %q", *level)
		}
		if *load != "1000lb" && *load != "500lb" {
			return ruleset.Usagef("--load is 1000lb or 500lb")
		}
		b := DiveBomb{Level: lvl, SideOn: *sideOn, Chased: *chased}
		out.Need, out.Mod, out.Points = b.Need(), b.Mod(), BombPoints(*load)
	case "torpedo":
		if *clock < 1 || *clock > 12 {
			return ruleset.Usagef("--clock is 1 to 12")
		}
		t := Torpedo{Range: *rng, Clock: *clock, Chased: *chased, Both: *both}
		if t.Need() == 0 {
			return ruleset.Usagef("--range: a torpedo is launched 5 to 20 hexes from the ship, got %d", *rng)
		}
		out.Need, out.Mod, out.Points = t.Need(), t.Mod(), TorpedoPoints
		out.Aspect, _ = t.Aspect()
	default:
		return ruleset.Usagef("--attack is bomb or torpedo")
	}
	out.Hit = out.Die+out.Mod >= out.Need
	if !out.Hit {
		out.Points = 0
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, out)
	}
	aspect := ""
	if out.Aspect != "" {
		aspect = " (" + out.Aspect + ")"
	}
	fmt.Fprintf(stdout, "%s%s: needs %d, modifier %+d, rolled %d: ", out.Attack, aspect, out.Need, out.Mod, out.Die)
	if out.Hit {
		fmt.Fprintf(stdout, "a hit, %d damage points\n", out.Points)
	} else {
		fmt.Fprintln(stdout, "a miss")
	}
	return nil
}

const calcAAHelp = `sortie calc aa --ruleset tnl: an AA battery's dice and hits.

  --class C          heavy, medium, light or very-light
  --guns N           guns of the class
  --range N          hexes to the aircraft
  --level L          the aircraft's level: VL, L, M, H
  --clock N          for a ship: where the aircraft is from it (12 ahead; 0 overhead); leave out for a site
  --radar            radar-controlled guns (hit on 5)
  --dice D,D,...     the dice thrown (leave out to see how many)
  --json             one JSON object
`

type aaJSON struct {
	Class   string `json:"class"`
	Reaches bool   `json:"reaches"`
	Why     string `json:"why,omitempty"`
	Dice    int    `json:"dice"`
	Colour  string `json:"colour"`
	Arc     string `json:"arc,omitempty"`
	Need    int    `json:"need"`
	Rolls   []int  `json:"rolls,omitempty"`
	Hits    int    `json:"hits"`
}

func calcAA(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc aa", flag.ContinueOnError)
	class := fs.String("class", "", "")
	guns := fs.Int("guns", 0, "")
	rng := fs.Int("range", 1, "")
	level := fs.String("level", "L", "")
	clock := fs.Int("clock", -1, "")
	radar := fs.Bool("radar", false, "")
	diceText := fs.String("dice", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc aa", calcAAHelp, "", stdout); done || err != nil {
		return err
	}
	name := strings.ReplaceAll(*class, "-", " ")
	var c *AAClass
	for i := range AAClasses {
		if AAClasses[i].Name == name {
			c = &AAClasses[i]
		}
	}
	if c == nil {
		return ruleset.Usagef("--class is heavy, medium, light or very-light, got %q", *class)
	}
	lvl, ok := ParseLevel(*level)
	if !ok {
		return ruleset.Usagef("--level is VL, L, M or H")
	}
	if *guns < 1 || *guns > 400 {
		return ruleset.Usagef("--guns is 1 to 400")
	}
	out := aaJSON{Class: c.Name, Reaches: true, Dice: c.Dice(*guns), Colour: c.Colour.String(), Need: AANeed(*radar)}
	switch {
	case lvl > c.Ceiling:
		out.Reaches, out.Why = false, fmt.Sprintf("%s guns reach up to %s", c.Name, c.Ceiling)
	case c.Range > 0 && *rng > c.Range:
		out.Reaches, out.Why = false, fmt.Sprintf("%s guns reach %d hexes", c.Name, c.Range)
	}
	if *clock >= 0 {
		if *clock > 12 {
			return ruleset.Usagef("--clock is 0 (overhead) to 12")
		}
		out.Dice, out.Arc = ShipArc(*clock, out.Dice)
	}
	rolls, err := dieList("--dice", *diceText)
	if err != nil {
		return err
	}
	if len(rolls) > 0 {
		if len(rolls) != out.Dice {
			return ruleset.Usagef("--dice: the battery throws %d dice; %d given", out.Dice, len(rolls))
		}
		out.Rolls = rolls
		for _, v := range rolls {
			if out.Reaches && Hits(v, out.Need) {
				out.Hits++
			}
		}
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, out)
	}
	if !out.Reaches {
		fmt.Fprintf(stdout, "Out of reach: %s.\n", out.Why)
		return nil
	}
	arc := ""
	if out.Arc != "" {
		arc = " (" + out.Arc + " arc)"
	}
	fmt.Fprintf(stdout, "%d %s gun%s: %d %s dice%s, each hitting on %d\n", *guns, c.Name, plural(*guns), out.Dice, out.Colour, arc, out.Need)
	if len(out.Rolls) > 0 {
		fmt.Fprintf(stdout, "Rolled %s: %d hit%s.\n", ints(out.Rolls), out.Hits, plural(out.Hits))
	}
	return nil
}

const calcSheetHelp = `sortie calc sheet --ruleset tnl: a type's stat sheet and the figures it comes from.

  --type KEY     the type (leave out to list them)
  --json         one JSON object
`

func calcSheet(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc sheet", flag.ContinueOnError)
	typeKey := fs.String("type", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc sheet", calcSheetHelp, "", stdout); done || err != nil {
		return err
	}
	d, err := DefaultData()
	if err != nil {
		return err
	}
	if *typeKey == "" {
		for _, k := range d.Keys() {
			sh, _ := d.Sheet(k)
			fmt.Fprintf(stdout, "%-12s %s\n", k, sh.Name)
		}
		return nil
	}
	sh, err := sheetFlag(*typeKey)
	if err != nil {
		return err
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, sh)
	}
	fmt.Fprintf(stdout, "%s (%s)\n  SP %d/%d  FS %d  %s  SR %d+  hits %d  dive %+d/%+d  climb %+d/%+d  up to %s\n",
		sh.Name, sh.Role, sh.SP[0], sh.SP[1], sh.FS, firepowerText(sh), sh.SR, sh.Hits, sh.Dive[0], sh.Dive[1], sh.Climb[0], sh.Climb[1], sh.MaxLevel)
	if len(sh.Seed) > 0 {
		fmt.Fprintf(stdout, "  printed in seed 003: %s\n", strings.Join(sh.Seed, ", "))
	}
	fmt.Fprintf(stdout, "  source: %s\n", sh.Source)
	return nil
}
