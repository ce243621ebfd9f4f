package afd

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"sortie/rules/afd/strike"
	"sortie/rules/ruleset"
)

// The air-to-ground calculators (seed 002): a moderator checks any result with the dice given.

const calcBombHelp = `sortie calc bomb: a bombing or rocket attack on the standard bombing table (seed 002).

  --kind K          level, dive, glide or rocket (default level)
  --alt FT          the bomber's altitude in feet at release (its level: sortie calc bomb --help lists them)
  --crew Q          green, regular, veteran or ace (default regular)
  --die N           the d10 (1-10)
  --dived N         altitude levels dived before release (dive and glide bombing)
  --change-phase    a glide attack released at the end of its dive
  --crew-hit        the crew (or bombardier) was hit
  --wing-hit        a wing hit (a dive bomber's dive brakes)
  --half-hits       more than half the wing or fuselage boxes hit
  --crippled        more than half of one area hit (level bombing)
  --bombsight       an advanced bombsight (level bombing)
  --range N         rockets: hexes to the target, 1-3
  --scatter N       the d10 for a scatter (house rule), with --heading D the bomber's facing 0-11
  --json            one JSON object

Altitude levels: 0 under 500 ft, 1 to 2,900, 2 to 6,900, 3 to 11,900, 4 to 17,900, 5 to 24,900, 6 above.
Exit status 1 when the attack is not allowed, 2 for a usage error.
`

const calcTargetHelp = `sortie calc target: the damage an attack does to a ground target (seed 002).

  --weapon W        1000lb, 500lb, 250lb, rocket or torpedo; or --attack N for a value of your own
  --count N         how many of them hit (default 1)
  --result R        direct-hit, on-target, near-miss or scatter (default on-target)
  --strafe N        instead: a strafing attack value (sortie calc bomb has none; see docs)
  --defence N       the target's defence value (or --target tank, truck, gun, bridge, ...: the seed's samples)
  --prior D         none, light or heavy: damage the target already has
  --secondary       another target in the hex: half the attack value (not for a torpedo)
  --ship            strafing a ship (not its flak): its defence counts double; --armoured: an armoured
                    ship (a battleship), which strafing cannot hurt. --target destroyer is a ship.
  --attack-die N    the attacker's d10     --defence-die N   the defender's d10
  --json            one JSON object

Exit status 1 when the attack is not allowed (strafing a large building or a bridge, a torpedo's
--secondary), 2 for a usage error.
`

const calcFlakHelp = `sortie calc flak: a flak unit's attack value (seed 002).

  --kind K          light, heavy or naval (default light)
  --barrels LIST    light and naval: e.g. 4x20mm,2x40mm (small-arms, .30, .50, 20mm, 30mm, 40mm)
  --alt FT          light and heavy: the target plane's altitude in feet
  --range N         light and heavy: hexes to it (light reaches 2, heavy 4); out of reach exits 1
  --front           light: firing at the plane's front or rear     --damaged   the flak is lightly damaged
  --mm N --guns N   heavy: the calibre and the guns in the hex (naval: the dual-purpose guns)
  --size S          naval: carrier, battleship, aa-ship, cruiser, destroyer or other
  --json            one JSON object
`

const calcTorpedoHelp = `sortie calc torpedo: a torpedo drop and its hit (seed 002).

  --crew Q          green, regular, veteran or ace     --die N     the drop's d10
  --alt FT --speed N --range N                         the drop: level 0, speed 2 or less, 1-4 hexes
  --crippled        the bomber is crippled             --us-1943   an American torpedo before 1943
  --hit-die N       the hit's d10, with --size large|small|very-small, --bow-stern, --bow-and-side, --slow
  --json            one JSON object
`

func crewFlag(s string) (strike.Crew, error) {
	switch s {
	case "green", "regular", "veteran", "ace", "":
		return strike.CrewOf(s), nil
	}
	return 0, ruleset.Usagef("--crew is green, regular, veteran or ace, not %q", s)
}

func d10Flag(name string, n int, required bool) error {
	if n == 0 && !required {
		return nil
	}
	if n < 1 || n > 10 {
		return ruleset.Usagef("%s is a d10: 1 to 10, not %d", name, n)
	}
	return nil
}

func printStrike(w io.Writer, asJSON bool, v any, text string) error {
	if asJSON {
		return ruleset.WriteJSON(w, v)
	}
	_, err := io.WriteString(w, text)
	return err
}

func modsText(m strike.Mods) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, x := range m {
		parts = append(parts, fmt.Sprintf("%+d %s", x.Value, x.What))
	}
	return strings.Join(parts, ", ")
}

func calcBomb(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc bomb", flag.ContinueOnError)
	kind := fs.String("kind", "level", "")
	altText := fs.String("alt", "", "")
	crewText := fs.String("crew", "regular", "")
	die := fs.Int("die", 0, "")
	dived := fs.Int("dived", 0, "")
	change := fs.Bool("change-phase", false, "")
	crewHit := fs.Bool("crew-hit", false, "")
	wingHit := fs.Bool("wing-hit", false, "")
	half := fs.Bool("half-hits", false, "")
	crippled := fs.Bool("crippled", false, "")
	sight := fs.Bool("bombsight", false, "")
	rng := fs.Int("range", 0, "")
	scatter := fs.Int("scatter", 0, "")
	heading := fs.Int("heading", 0, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc bomb", calcBombHelp, "", stdout); done || err != nil {
		return err
	}
	alt, err := parseAlt(*altText)
	if err != nil {
		return err
	}
	crew, err := crewFlag(*crewText)
	if err != nil {
		return err
	}
	if err := d10Flag("--die", *die, true); err != nil {
		return err
	}
	if err := d10Flag("--scatter", *scatter, false); err != nil {
		return err
	}
	if *heading < 0 || *heading > 11 {
		return ruleset.Usagef("--heading is 0 to 11, not %d", *heading)
	}
	a := strike.Attack{Kind: strike.Kind(*kind), Crew: crew, LevelsDived: *dived, ChangePhase: *change, CrewHit: *crewHit, WingHit: *wingHit,
		WingOrFuselageHalf: *half, Crippled: *crippled, AdvancedBombsight: *sight, Range: *rng}
	level := strike.Level(alt)
	out := struct {
		Kind      string      `json:"kind"`
		Level     int         `json:"level"`
		Die       int         `json:"die"`
		Modifiers strike.Mods `json:"modifiers"`
		Modified  int         `json:"modified"`
		Result    string      `json:"result"`
		Damages   bool        `json:"damages"`
		Scatter   string      `json:"scatter,omitempty"`
		Problem   string      `json:"problem,omitempty"`
	}{Kind: *kind, Level: level, Die: *die, Modifiers: a.Modifiers()}
	if out.Modifiers == nil {
		out.Modifiers = strike.Mods{}
	}
	out.Problem = a.Check(level, true) // the calculator takes the plane to be what its attack needs
	out.Modified = *die + out.Modifiers.Sum()
	res := strike.Bomb(level, out.Modified)
	out.Result, out.Damages = res.String(), true
	if a.Kind == strike.Rockets {
		res, out.Damages = strike.Rocket(level, out.Modified)
	}
	if out.Problem != "" {
		out.Damages = false // an attack that may not be made does no damage
	}
	if res == strike.Scatter && *scatter > 0 && a.Kind != strike.Rockets {
		if side, moved := strike.ScatterHex(*heading, *scatter); moved {
			out.Scatter = fmt.Sprintf("the bombs land in the neighbouring hex across hexside %03d", side*30)
		} else {
			out.Scatter = "the bombs land in the target hex at half effect"
		}
	}
	text := fmt.Sprintf("%s attack from level %d: d10 %d, modifiers %s = %d: %s", *kind, level, *die, modsText(out.Modifiers), out.Modified, out.Result)
	if !out.Damages && out.Problem == "" {
		text += " (a rocket near miss or scatter does no damage)"
	}
	if out.Scatter != "" {
		text += "; " + out.Scatter
	}
	text += "\n"
	if out.Problem != "" {
		text += "Not allowed: " + out.Problem + "\n"
	}
	if err := printStrike(stdout, *asJSON, out, text); err != nil {
		return err
	}
	if out.Problem != "" {
		return ruleset.ErrIllegal
	}
	return nil
}

// noStrafe is --strafe not given.
const noStrafe = -999

func calcTarget(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc target", flag.ContinueOnError)
	weapon := fs.String("weapon", "", "")
	attack := fs.Int("attack", 0, "")
	strafe := fs.Int("strafe", noStrafe, "")
	count := fs.Int("count", 1, "")
	resultText := fs.String("result", "on-target", "")
	defence := fs.Int("defence", 0, "")
	target := fs.String("target", "", "")
	prior := fs.String("prior", "none", "")
	secondary := fs.Bool("secondary", false, "")
	ship := fs.Bool("ship", false, "")
	armoured := fs.Bool("armoured", false, "")
	ad := fs.Int("attack-die", 0, "")
	dd := fs.Int("defence-die", 0, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc target", calcTargetHelp, "", stdout); done || err != nil {
		return err
	}
	results := map[string]strike.Result{"direct-hit": strike.DirectHit, "on-target": strike.OnTarget, "near-miss": strike.NearMiss, "scatter": strike.Scatter}
	res, ok := results[*resultText]
	if !ok {
		return ruleset.Usagef("--result is direct-hit, on-target, near-miss or scatter, not %q", *resultText)
	}
	if *count < 1 {
		return ruleset.Usagef("--count is at least 1")
	}
	// A strafing attack value may be 0 or less: a small gun factor with its modifiers (strike.Strafe).
	strafing := *strafe != noStrafe
	if strafing && (*strafe < -20 || *strafe > 40) {
		return ruleset.Usagef("--strafe %d: a strafing attack value is -20 to 40", *strafe)
	}
	av := *attack
	switch {
	case strafing:
		av = *strafe
	case *weapon != "":
		v, ok := strike.AttackValue(*weapon)
		if !ok {
			return ruleset.Usagef("--weapon is 1000lb, 500lb, 250lb, rocket or torpedo, not %q", *weapon)
		}
		av = strike.ModifiedAttack(v, *count, res)
	case av > 0:
		av = strike.ModifiedAttack(av, *count, res)
	default:
		return ruleset.Usagef("give --weapon, --attack or --strafe")
	}
	problem := ""
	if *secondary {
		if !strafing && !strike.SecondaryApplies(*weapon) {
			problem = "a torpedo attacks only the ship it hits: the other targets in the hex take nothing (seed 002)"
		}
		av = strike.Secondary(av)
	}
	if strafing && *target != "" && !strike.Strafable(*target) {
		problem = fmt.Sprintf("strafing cannot hurt a %s (seed 002: vehicles, guns, troops, small buildings and ships)", *target)
	}
	dv := *defence
	if *target != "" {
		v, ok := strike.SampleDefence[*target]
		if !ok {
			return ruleset.Usagef("--target %q has no sample value; give --defence", *target)
		}
		dv = v
	}
	if dv < 1 {
		return ruleset.Usagef("give --defence (1 or more) or --target")
	}
	priors := map[string]strike.Damage{"none": strike.NoDamage, "light": strike.Light, "heavy": strike.Heavy}
	pd, ok := priors[*prior]
	if !ok {
		return ruleset.Usagef("--prior is none, light or heavy, not %q", *prior)
	}
	if err := d10Flag("--attack-die", *ad, true); err != nil {
		return err
	}
	if err := d10Flag("--defence-die", *dd, true); err != nil {
		return err
	}
	dvNow := strike.Defence(dv, pd)
	if *armoured && !*ship {
		return ruleset.Usagef("--armoured is for a ship: give --ship too")
	}
	if strafing && (*ship || *target == "destroyer") {
		// Strafing the whole ship, as the turn does it (strike.StrafedShipDefence).
		v, ok := strike.StrafedShipDefence(dvNow, *armoured)
		if !ok {
			problem = "strafing cannot hurt an armoured ship (seed 002)"
		}
		dvNow = v
	}
	dmg := strike.DamageOf(av+*ad, dvNow+*dd)
	out := struct {
		Attack       int    `json:"attack"`
		Defence      int    `json:"defence"`
		AttackTotal  int    `json:"attack_total"`
		DefenceTotal int    `json:"defence_total"`
		Damage       string `json:"damage"`
		Problem      string `json:"problem,omitempty"`
	}{av, dvNow, av + *ad, dvNow + *dd, dmg.String(), problem}
	text := fmt.Sprintf("attack %d + %d = %d against defence %d + %d = %d: %s\n", av, *ad, out.AttackTotal, dvNow, *dd, out.DefenceTotal, out.Damage)
	if problem != "" {
		// Not allowed: no damage, whatever the dice.
		out.Damage = strike.NoDamage.String()
		text = "Not allowed: " + problem + "\n"
	}
	if err := printStrike(stdout, *asJSON, out, text); err != nil {
		return err
	}
	if problem != "" {
		return ruleset.ErrIllegal
	}
	return nil
}

// parseBarrels reads "4x20mm,2x40mm" for a flag.
func parseBarrels(s string) ([]strike.Barrels, error) {
	bs, err := strike.ParseBarrels(s)
	if err != nil {
		return nil, ruleset.Usagef("--barrels: %v", err)
	}
	return bs, nil
}

func calcFlak(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc flak", flag.ContinueOnError)
	kind := fs.String("kind", "light", "")
	barrels := fs.String("barrels", "", "")
	altText := fs.String("alt", "", "")
	rng := fs.Int("range", 0, "")
	front := fs.Bool("front", false, "")
	damaged := fs.Bool("damaged", false, "")
	mm := fs.Int("mm", 0, "")
	guns := fs.Int("guns", 1, "")
	size := fs.String("size", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc flak", calcFlakHelp, "", stdout); done || err != nil {
		return err
	}
	bs, err := parseBarrels(*barrels)
	if err != nil {
		return err
	}
	switch *kind {
	case "light":
		if len(bs) == 0 {
			return ruleset.Usagef("light flak needs --barrels, e.g. 4x20mm")
		}
		alt, err := parseAlt(*altText)
		if err != nil {
			return err
		}
		v, _ := strike.LightFlakValue(bs)
		f := strike.LightFlak{Level: strike.Level(alt), Range: *rng, FrontRear: *front, Damaged: *damaged}
		out := struct {
			Value     float64     `json:"value"`
			Modifiers strike.Mods `json:"modifiers"`
			Problem   string      `json:"problem,omitempty"`
		}{v, f.Modifiers(), f.Check()}
		if out.Modifiers == nil {
			out.Modifiers = strike.Mods{}
		}
		text := fmt.Sprintf("light flak value %.1f, modifiers %s, at level %d and range %d\n", v, modsText(out.Modifiers), f.Level, f.Range)
		if out.Problem != "" {
			text += "Out of reach: " + out.Problem + "\n"
		}
		if err := printStrike(stdout, *asJSON, out, text); err != nil {
			return err
		}
		if out.Problem != "" {
			return ruleset.ErrIllegal
		}
		return nil
	case "heavy":
		a, s, ceil, err := strike.HeavyFlak(*mm, *guns)
		if err != nil {
			return ruleset.Usagef("%v", err)
		}
		out := struct {
			Aimed   int    `json:"aimed"`
			Splash  int    `json:"splash"`
			Ceiling int    `json:"ceiling"`
			Problem string `json:"problem,omitempty"`
		}{Aimed: a, Splash: s, Ceiling: ceil}
		text := fmt.Sprintf("heavy flak %d/%d (aimed hex / next hex or level), up to level %d, 4 hexes, every other impulse\n", a, s, ceil)
		if *altText != "" || *rng != 0 {
			// The plane given: whether the flak reaches it, as the game decides (strike.HeavyFlakCheck).
			level := 2
			if *altText != "" {
				alt, err := parseAlt(*altText)
				if err != nil {
					return err
				}
				level = strike.Level(alt)
			}
			if out.Problem = strike.HeavyFlakCheck(level, *rng, ceil); out.Problem != "" {
				text += "Out of reach: " + out.Problem + "\n"
			} else {
				text += fmt.Sprintf("It reaches a plane at level %d, %d hexes away.\n", level, *rng)
			}
		}
		if err := printStrike(stdout, *asJSON, out, text); err != nil {
			return err
		}
		if out.Problem != "" {
			return ruleset.ErrIllegal
		}
		return nil
	case "naval":
		n, err := strike.Naval(strike.ShipSize(*size), bs, *mm, *guns)
		if err != nil {
			return ruleset.Usagef("%v", err)
		}
		text := fmt.Sprintf("light/medium flak %d", n.Light)
		if n.LightPerSide > 0 {
			text += fmt.Sprintf(", %d attack(s) on each side", n.LightPerSide)
		} else {
			text += fmt.Sprintf(", %d attack for the ship", n.LightTotal)
		}
		if n.HeavyAttacks > 0 {
			text += fmt.Sprintf("; heavy flak %d/%d, %d attack(s) every other impulse", n.HeavyAimed, n.HeavySplash, n.HeavyAttacks)
		}
		return printStrike(stdout, *asJSON, n, text+"\n")
	}
	return ruleset.Usagef("--kind is light, heavy or naval, not %q", *kind)
}

func calcTorpedo(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc torpedo", flag.ContinueOnError)
	crewText := fs.String("crew", "regular", "")
	die := fs.Int("die", 0, "")
	altText := fs.String("alt", "0", "")
	speed := fs.Int("speed", 2, "")
	rng := fs.Int("range", 2, "")
	crippled := fs.Bool("crippled", false, "")
	us := fs.Bool("us-1943", false, "")
	hitDie := fs.Int("hit-die", 0, "")
	size := fs.String("size", "", "")
	bow := fs.Bool("bow-stern", false, "")
	bowSide := fs.Bool("bow-and-side", false, "")
	slow := fs.Bool("slow", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc torpedo", calcTorpedoHelp, "", stdout); done || err != nil {
		return err
	}
	crew, err := crewFlag(*crewText)
	if err != nil {
		return err
	}
	alt, err := parseAlt(*altText)
	if err != nil {
		return err
	}
	if err := d10Flag("--die", *die, true); err != nil {
		return err
	}
	if err := d10Flag("--hit-die", *hitDie, false); err != nil {
		return err
	}
	switch *size {
	case "", "large", "small", "very-small":
	default:
		return ruleset.Usagef("--size is large, small or very-small, not %q", *size)
	}
	tp := strike.Torpedo{Crew: crew, Crippled: *crippled, USBefore1943: *us, Level: strike.Level(alt), Speed: *speed, Range: *rng, TorpedoBomber: true}
	out := struct {
		Problem      string      `json:"problem,omitempty"`
		Modifiers    strike.Mods `json:"modifiers"`
		Modified     int         `json:"modified"`
		Runs         bool        `json:"runs"`
		HitModifiers strike.Mods `json:"hit_modifiers,omitempty"`
		HitModified  int         `json:"hit_modified,omitempty"`
		Hit          *bool       `json:"hit,omitempty"`
		CountsAs     string      `json:"counts_as,omitempty"`
	}{Problem: tp.Check(), Modifiers: tp.Modifiers()}
	if out.Modifiers == nil {
		out.Modifiers = strike.Mods{}
	}
	out.Modified = *die + out.Modifiers.Sum()
	out.Runs = out.Problem == "" && strike.Runs(out.Modified)
	text := fmt.Sprintf("drop: d10 %d, modifiers %s = %d: ", *die, modsText(out.Modifiers), out.Modified)
	switch {
	case out.Problem != "":
		text = "Not allowed: " + out.Problem + "\n"
	case out.Runs:
		text += "the torpedo runs straight and normal\n"
	default:
		text += "a poor drop or a faulty torpedo: out of the game\n"
	}
	if out.Runs && *hitDie > 0 {
		h := strike.TorpedoHit{Size: *size, BowStern: *bow, BowAndSide: *bowSide, SlowTorpedo: *slow}
		out.HitModifiers = h.Modifiers()
		out.HitModified = *hitDie + out.HitModifiers.Sum()
		hit := strike.Hits(out.HitModified)
		out.Hit = &hit
		text += fmt.Sprintf("hit: d10 %d, modifiers %s = %d: ", *hitDie, modsText(out.HitModifiers), out.HitModified)
		if hit {
			out.CountsAs = strike.TorpedoResult(*bow && !*bowSide).String()
			text += "a hit, counted as " + out.CountsAs + " (attack value 10)\n"
		} else {
			text += "a miss\n"
		}
	}
	if err := printStrike(stdout, *asJSON, out, text); err != nil {
		return err
	}
	if out.Problem != "" {
		return ruleset.ErrIllegal
	}
	return nil
}

const calcFlakHitHelp = `sortie calc flak-hit: a flak attack on an aircraft (seed 002, read for Air Force cards as
docs/rulings.md says): the flak's d10 plus its value against the plane's d10 plus its defence, and
the hits that makes, which then fall on the card by the hit-location tables.

  --value N         the flak's value with its modifiers, as the game's report shows them (required)
  --die N           the flak's d10 (1-10)                 --plane-die N   the plane's d10 (1-10)
  --multi-engine    the plane has more than one engine (defence 7, else 6)
  --json            one JSON object
`

func calcFlakHit(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc flak-hit", flag.ContinueOnError)
	value := fs.Int("value", -999, "")
	die := fs.Int("die", 0, "")
	planeDie := fs.Int("plane-die", 0, "")
	me := fs.Bool("multi-engine", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc flak-hit", calcFlakHitHelp, "", stdout); done || err != nil {
		return err
	}
	switch {
	case *value == -999:
		return ruleset.Usagef("--value is required: the flak's value with its modifiers")
	case *value < -20 || *value > 60:
		return ruleset.Usagef("--value %d: a flak value is -20 to 60", *value)
	case *die < 1 || *die > 10 || *planeDie < 1 || *planeDie > 10:
		return ruleset.Usagef("--die and --plane-die are d10 rolls, 1 to 10")
	}
	dv := strike.PlaneDefence(*me)
	out := struct {
		AttackTotal  int `json:"attack_total"`
		Defence      int `json:"defence"`
		DefenceTotal int `json:"defence_total"`
		Hits         int `json:"hits"`
	}{*value + *die, dv, dv + *planeDie, strike.FlakHits(*value+*die, dv+*planeDie)}
	text := fmt.Sprintf("flak %d + %d = %d against defence %d + %d = %d: %d hit%s\n", *value, *die, out.AttackTotal, dv, *planeDie, out.DefenceTotal, out.Hits, plural(out.Hits))
	return printStrike(stdout, *asJSON, out, text)
}
