package aircraft

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// The formula that turns a type's published historical figures into its card (docs/aircraft.md "The
// formula", with a worked example for the Spitfire I). Every step is deterministic and rounds half up to
// a whole number. The constants below are the formula's only free choices; each is explained where it
// is used.
const (
	// MPHPerSpeedPoint is the speed scale: one speed point (one hex per ~5 s game turn, seed 000's
	// halved turn) is 45 mph true airspeed.
	MPHPerSpeedPoint = 45.0
	// BandFeet is the height of one altitude band .
	BandFeet = 5000
	// CLMax is the maximum lift coefficient used for stall speeds, one figure for every type.
	CLMax = 1.4
	// StallMargin puts the bottom of the manoeuvre range 10% above the 1 g stall.
	StallMargin = 1.1
	// ManeuverFraction puts the top of the manoeuvre range at 70% of the top level speed.
	ManeuverFraction = 0.7
	// CeilingSpeedFraction is the top speed at the service ceiling, as a fraction of the speed at the
	// highest published point: above that point the top speed falls linearly to it.
	CeilingSpeedFraction = 0.75
	// ClimbAtCeilingFPM is the climb rate at the service ceiling (its usual definition).
	ClimbAtCeilingFPM = 100.0
	// FPMPerPowerFactor: a power factor gives +0.1 speed a turn and each 100 ft climbed costs 0.1 (seed
	// 000 rules (15), (16)), so a plane that climbs p×100 ft in a 5 s turn has p power factors, and
	// p×100 ft per 5 s is p×1200 ft/min.
	FPMPerPowerFactor = 1200.0
	// ManeuverThrust is the thrust, as a fraction of the weight, that a plane must have in hand at the
	// bottom of its manoeuvre range: there it turns hard, bleeds speed and wins it back with power (seed
	// 000 rule (14) gives full power factors only in that range). A propeller's thrust grows as the plane
	// slows, a turbojet's does not, and both fall with height, so piston types keep a manoeuvre range
	// nearly to their ceilings while the Me-262 loses its range above 20,000 ft, as on its printed card
	// . The value is calibrated on that one known card: anything from 0.16 to
	// 0.19 puts the Me-262's edge at 20,000 ft.
	ManeuverThrust = 0.18
	// OswaldE is the span efficiency used for induced drag, one figure for every type.
	OswaldE = 0.8
	// PropEfficiency turns a piston engine's published power into thrust at top speed.
	PropEfficiency = 0.8
	// JetThrustLapse is the exponent of the density ratio in a turbojet's thrust at altitude.
	JetThrustLapse = 0.7
	// TurnModeDivisor scales the density-corrected wing loading (lb/ft²) to a turn mode.
	TurnModeDivisor = 13.0
	// HPPerEngineBox sets how many damage boxes an engine has: 1 + hp/600 (jets: static thrust in lbf,
	// which equals thrust horsepower at 375 mph).
	HPPerEngineBox = 600.0
	// BurstSeconds is the length of one burst of fire.
	BurstSeconds = 1.5
	// HouseTMLevelPenalty and HouseTMDivePenalty are the turn-mode penalties at level and dive speed
	// .
	HouseTMLevelPenalty = 1
	HouseTMDivePenalty  = 2
)

// Physical constants.
const (
	seaLevelDensity = 0.0023769     // slug/ft³, standard atmosphere
	fpsPerMPH       = 5280.0 / 3600 // ft/s in one mph
	tropopauseFt    = 36089.0
)

// Wing-loading edges (lb/ft²) of the speed-loss classes for fighters that seed 000 rule (29) does not
// name: below 25 LWL, below 31 MWL, below 38 P40, below 43 P51, else P47. They sit between the loadings
// of the types the rule does name (Oscar 19.1, Zero 22.0, Spitfire I 24.1 | Hurricane I 25.6, SBD 28.9,
// F4F-4 30.6 | P-40C 31.6, P-39D 35.9, F6F-3 37.7 | P-51D 39.1 | P-47D 48.3). The FW190 class is only
// given by name.
var lossClassEdges = []struct {
	below float64
	class LossClass
}{{25, LossLWL}, {31, LossMWL}, {38, LossP40}, {43, LossP51}}

// SeedFamilies are the types seed 000 rule (29) names, with the speed-loss class it gives them.
var SeedFamilies = map[string]LossClass{
	"Zero": LossLWL, "Spitfire": LossLWL, "Oscar": LossLWL,
	"F4F": LossMWL, "Hurricane": LossMWL, "SBD": LossMWL,
	"P-39": LossP40, "P-40": LossP40, "F6F": LossP40,
	"P-51": LossP51, "Me-109": LossP51,
	"P-47":   LossP47,
	"Fw-190": LossFw190,
	"P-38":   LossHeavy,
}

// DensityRatio is σ, the air density at h feet over the sea-level density, in the standard atmosphere.
func DensityRatio(h float64) float64 {
	if h <= tropopauseFt {
		return math.Pow(1-6.87559e-6*h, 4.25588)
	}
	return 0.297076 * math.Exp(-(h-tropopauseFt)/20806.0)
}

// round rounds half up; every number the formula prints goes through it.
func round(x float64) int { return int(math.Floor(x + 0.5)) }

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// DeriveLossClass gives the speed-loss class of seed 000 rule (29): the class the rule gives the type's
// family if it names it; otherwise HEAVY for multi-engine types, bombers and torpedo bombers ("P-38,
// bombers"), MWL for dive bombers (the class of the SBD), and for other fighters the class of their wing
// loading (lossClassEdges).
func DeriveLossClass(f *File) (LossClass, error) {
	if c, ok := SeedFamilies[f.Family]; ok {
		return c, nil
	}
	switch {
	case f.Engines.Count > 1, f.Role == RoleBomber, f.Role == RoleTorpedoBomber:
		return LossHeavy, nil
	case f.Role == RoleDiveBomber:
		return LossMWL, nil
	}
	p := f.Performance
	if p == nil || p.LoadedWeightLb == nil || p.WingAreaSqFt == nil || p.WingAreaSqFt.Value <= 0 {
		return "", errors.New("a fighter's speed-loss class needs its loaded weight and wing area")
	}
	wl := p.LoadedWeightLb.Value / p.WingAreaSqFt.Value
	for _, e := range lossClassEdges {
		if wl < e.below {
			return e.class, nil
		}
	}
	return LossP47, nil
}

// Derive turns a file's historical figures into the card (docs/aircraft.md). The file must be valid
// (Parse checks it); Derive itself only refuses figures it cannot compute with.
func Derive(f *File) (*Card, error) { return derive(f, nil) }

// Explain derives the card and returns the working, step by step, as text: the worked example of
// docs/aircraft.md is this output for the Spitfire I.
func Explain(f *File) (string, error) {
	var b strings.Builder
	_, err := derive(f, func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) })
	return b.String(), err
}

type tracef func(format string, args ...any)

// model is the type's aerodynamics as the formula sees it.
type model struct {
	f                  *File
	p                  *Performance
	weight, area, span float64 // lb, ft², ft
	wingLoading        float64 // lb/ft²
	k                  float64 // induced-drag factor 1/(π e AR)
	cd0                float64 // zero-lift drag coefficient
	ceiling            float64
	jet                bool
}

func derive(f *File, tr tracef) (*Card, error) {
	if tr == nil {
		tr = func(string, ...any) {}
	}
	p := f.Performance
	if p == nil || len(p.TopSpeed) == 0 || p.Climb == nil || p.CeilingFt == nil || p.EmptyWeightLb == nil ||
		p.LoadedWeightLb == nil || p.WingAreaSqFt == nil || p.WingspanFt == nil || p.DiveLimitMPH == nil {
		return nil, fmt.Errorf("%s: the historical performance figures are incomplete", f.Key)
	}
	m := &model{f: f, p: p, weight: p.LoadedWeightLb.Value, area: p.WingAreaSqFt.Value, span: p.WingspanFt.Value,
		ceiling: p.CeilingFt.Value, jet: f.Engines.Kind == "jet"}
	if m.weight <= 0 || m.area <= 0 || m.span <= 0 || m.ceiling <= 0 || f.Engines.Count < 1 {
		return nil, fmt.Errorf("%s: weight, wing area, span, ceiling and engine count must be positive", f.Key)
	}
	m.wingLoading = m.weight / m.area
	ar := m.span * m.span / m.area
	m.k = 1 / (math.Pi * OswaldE * ar)
	tr("Wing loading %.0f lb / %.0f ft² = %.1f lb/ft²; aspect ratio %.2f²/%.0f = %.2f; induced-drag factor K = 1/(π·%.1f·%.2f) = %.4f.",
		m.weight, m.area, m.wingLoading, m.span, m.area, ar, OswaldE, ar, m.k)
	if err := m.fitDrag(tr); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Key, err)
	}

	class := f.LossClass
	if class == "" {
		var err error
		if class, err = DeriveLossClass(f); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Key, err)
		}
	}
	c := &Card{
		Key: f.Key, Name: f.Name, Nation: f.Nation, Year: f.Year, Role: f.Role, Engines: f.Engines,
		DiveBomber: f.DiveBomber, LossClass: class, Crew: f.Crew,
		TMLevelPenalty: HouseTMLevelPenalty, TMDivePenalty: HouseTMDivePenalty,
		Ceiling: round(m.ceiling),
	}
	tr("Speed-loss class %s (seed 000 rule (29)).", class)

	nBands := int(m.ceiling)/BandFeet + 1
	for i := range nBands {
		lo := i * BandFeet
		b := m.band(lo, lo+BandFeet-100, tr)
		c.Bands = append(c.Bands, b)
	}
	var err error
	if c.Guns, err = deriveGuns(f, tr); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Key, err)
	}
	c.Systems = deriveSystems(f, c.Guns, tr)
	c.Loaded = deriveLoaded(f, tr)
	return c, nil
}

// fitDrag finds the zero-lift drag coefficient from the fastest published speed: at that speed and
// height the engine's thrust equals the drag. A piston engine's thrust is PropEfficiency × power / speed;
// a jet's is its static thrust × σ^JetThrustLapse.
func (m *model) fitDrag(tr tracef) error {
	best := 0
	for i, pt := range m.p.TopSpeed {
		if pt.MPH > m.p.TopSpeed[best].MPH {
			best = i
		}
	}
	pt := m.p.TopSpeed[best]
	sigma := DensityRatio(pt.AltFt)
	v := pt.MPH * fpsPerMPH
	q := 0.5 * seaLevelDensity * sigma * v * v
	n := float64(m.f.Engines.Count)
	var thrust float64
	switch {
	case m.jet && m.p.EngineThrustLbf != nil:
		thrust = n * m.p.EngineThrustLbf.Value * math.Pow(sigma, JetThrustLapse)
		tr("Thrust at %.0f ft (σ = %.3f): %.0f × %.0f lbf × σ^%.1f = %.0f lbf.", pt.AltFt, sigma, n, m.p.EngineThrustLbf.Value, JetThrustLapse, thrust)
	case !m.jet && m.p.EngineHP != nil:
		thrust = PropEfficiency * n * m.p.EngineHP.Value * 550 / v
		tr("Thrust at %.0f mph: %.1f × %.0f × %.0f hp × 550 / %.0f ft/s = %.0f lbf.", pt.MPH, PropEfficiency, n, m.p.EngineHP.Value, v, thrust)
	default:
		return errors.New("a piston type needs engine_hp, a jet engine_thrust_lbf")
	}
	induced := m.k * m.weight * m.weight / (q * m.area)
	m.cd0 = (thrust - induced) / (q * m.area)
	tr("At %.0f mph and %.0f ft, q = %.1f lb/ft²; induced drag %.0f lbf; so CD0 = (%.0f − %.0f) / (%.1f × %.0f) = %.4f.",
		pt.MPH, pt.AltFt, q, induced, thrust, induced, q, m.area, m.cd0)
	if m.cd0 < 0.005 || m.cd0 > 0.1 {
		return fmt.Errorf("the drag fitted from the top speed and engine figures is implausible (CD0 %.4f): check them", m.cd0)
	}
	return nil
}

// topSpeed is the top level speed (mph) at h ft: piecewise linear through the published points, held
// below the lowest, falling linearly above the highest to CeilingSpeedFraction of it at the ceiling.
func (m *model) topSpeed(h float64) float64 {
	pts := m.p.TopSpeed
	if h <= pts[0].AltFt {
		return pts[0].MPH
	}
	for i := 1; i < len(pts); i++ {
		if h <= pts[i].AltFt {
			a, b := pts[i-1], pts[i]
			return a.MPH + (b.MPH-a.MPH)*(h-a.AltFt)/(b.AltFt-a.AltFt)
		}
	}
	last := pts[len(pts)-1]
	return last.MPH - (1-CeilingSpeedFraction)*last.MPH*(h-last.AltFt)/(m.ceiling-last.AltFt)
}

// climb is the best climb rate (ft/min) at h: the published rate up to its altitude, then falling
// linearly to ClimbAtCeilingFPM at the ceiling.
func (m *model) climb(h float64) float64 {
	c := m.p.Climb
	if h <= c.AltFt {
		return c.FPM
	}
	return c.FPM + (ClimbAtCeilingFPM-c.FPM)*(h-c.AltFt)/(m.ceiling-c.AltFt)
}

// drag is the drag in level flight, lbf, at v ft/s and density ratio sigma.
func (m *model) drag(v, sigma float64) float64 {
	q := 0.5 * seaLevelDensity * sigma * v * v
	return q*m.area*m.cd0 + m.k*m.weight*m.weight/(q*m.area)
}

// thrustRatio is the thrust in hand at v mph, as a fraction of the weight, in a band of density ratio
// sigma whose top level speed is vTop mph. The engine's output at the band is what holds that top speed
// against the drag: a jet's thrust is the same at every speed, a piston engine's power is, so its
// thrust is that power divided by the speed.
func (m *model) thrustRatio(v, sigma, vTop float64) float64 {
	thrust := m.drag(vTop*fpsPerMPH, sigma)
	if !m.jet {
		thrust *= vTop / v
	}
	return thrust / m.weight
}

// band computes one altitude band, evaluated at its middle altitude (or at the ceiling, if lower).
func (m *model) band(lo, hi int, tr tracef) Band {
	f := m.f
	h := math.Min(float64(lo+hi)/2, m.ceiling)
	sigma := DensityRatio(h)
	b := Band{MinAlt: lo, MaxAlt: hi}
	tr("")
	tr("Band %d-%d ft, evaluated at %.0f ft: σ = %.4f.", lo, hi, h, sigma)

	vTop := m.topSpeed(h)
	b.Level.Max = round(vTop / MPHPerSpeedPoint)
	tr("  Top level speed %.1f mph → Level.Max = round(%.1f/45) = %d.", vTop, vTop, b.Level.Max)

	vs := math.Sqrt(2*m.wingLoading/(seaLevelDensity*sigma*CLMax)) / fpsPerMPH
	vMin := StallMargin * vs
	mMin := max(1, round(vMin/MPHPerSpeedPoint))
	mMax := round(ManeuverFraction * float64(b.Level.Max))
	tw := m.thrustRatio(vMin, sigma, vTop)
	tr("  Stall %.1f mph, ×%.1f = %.1f mph → manoeuvre bottom %d; top round(%.1f × %d) = %d; thrust in hand at %.0f mph %.3f of the weight (%.2f needed).",
		vs, StallMargin, vMin, mMin, ManeuverFraction, b.Level.Max, mMax, vMin, tw, ManeuverThrust)
	switch {
	case mMin > mMax:
		b.Level.Min = mMin
		tr("  No manoeuvre range: its bottom is above its top. Level %d-%d.", b.Level.Min, b.Level.Max)
	case tw < ManeuverThrust:
		b.Level.Min = mMin
		tr("  No manoeuvre range: too little thrust in hand. Level %d-%d.", b.Level.Min, b.Level.Max)
	default:
		b.Maneuver = &SpeedRange{Min: mMin, Max: mMax}
		b.Level.Min = mMax + 1
		tr("  Maneuver %d-%d, Level %d-%d.", mMin, mMax, b.Level.Min, b.Level.Max)
	}
	b.Dive = SpeedRange{Min: b.Level.Max + 1, Max: max(round(m.p.DiveLimitMPH.Value/MPHPerSpeedPoint), b.Level.Max+1)}
	tr("  Dive %d-%d (dive limit %.0f mph).", b.Dive.Min, b.Dive.Max, m.p.DiveLimitMPH.Value)

	fpm := m.climb(h)
	b.Power = max(0, round(fpm/FPMPerPowerFactor))
	b.MaxClimb = max(100, round(fpm/6/100)*100)
	tr("  Climb %.0f ft/min → Power = round(%.0f/1200) = %d; MaxClimb = 2 × %.0f × 5/60 = %.0f → %d ft.", fpm, fpm, b.Power, fpm, fpm/6, b.MaxClimb)

	b.Brake = 1
	if f.Engines.Count > 1 || f.Role == RoleBomber || f.Role == RoleTorpedoBomber {
		b.Brake++
	}
	if f.DiveBrakes {
		b.Brake += 2
	}

	factor := structureFactor(f.Role)
	wle := m.wingLoading / sigma
	turn := max(1, round(wle*factor/TurnModeDivisor))
	bank := clamp(round(m.span/20), 1, 5)
	if f.Role == RoleBomber || f.Role == RoleTorpedoBomber {
		bank++
	}
	b.TM = TurnModes{Turn: turn, Slip: turn, HalfRoll: turn, HalfLoop: turn + 1, Bank: bank}
	tr("  Brake %d. Turn = round(%.1f/%.4f × %.1f / 13) = %d; slip %d, half roll %d, half loop %d, bank round(%.1f/20) = %d.",
		b.Brake, m.wingLoading, sigma, factor, turn, turn, turn, turn+1, m.span, bank)
	return b
}

// structureFactor scales turn modes for the load factor the structure allows.
func structureFactor(r Role) float64 {
	switch r {
	case RoleBomber, RoleTorpedoBomber:
		return 1.7
	case RoleDiveBomber:
		return 1.3
	}
	return 1.0
}

// deriveGuns builds the card's gun positions: the mix of each position's weapons, a range of 6 for
// flexible rifle-calibre guns (the weapons the original rated range 3) and 8 otherwise, and ammunition
// in bursts of BurstSeconds, counted by the weapon that runs dry first.
func deriveGuns(f *File, tr tracef) ([]GunPosition, error) {
	var guns []GunPosition
	for _, a := range f.Armament {
		var mixes []string
		seconds := math.Inf(1)
		rifle := true
		for _, w := range a.Weapons {
			mixes = append(mixes, fmt.Sprintf("%dx%s", w.Count, w.Kind))
			if w.RateRPM <= 0 {
				return nil, fmt.Errorf("gun position %s: %s has no rate of fire", a.ID, w.Name)
			}
			seconds = math.Min(seconds, float64(w.Rounds)/(float64(w.RateRPM)/60))
			if w.Kind != Kind30M {
				rifle = false
			}
		}
		if len(mixes) == 0 {
			return nil, fmt.Errorf("gun position %s has no weapons", a.ID)
		}
		mix, err := CombineMix(mixes...)
		if err != nil {
			return nil, fmt.Errorf("gun position %s: %w", a.ID, err)
		}
		rng := 8
		if a.Kind == "F" && rifle {
			rng = 6
		}
		g := GunPosition{ID: a.ID, Kind: a.Kind, Side: a.Side, Mix: mix, Range: rng,
			Ammo: max(1, int(math.Floor(seconds/BurstSeconds)))}
		if len(a.Arcs) > 0 {
			g.Arcs = append([]int(nil), a.Arcs...)
		}
		tr("Guns %s (%s, side %s): %s, %.1f s of fire → %d bursts, range %d.", g.ID, g.Kind, g.Side, g.Mix, seconds, g.Ammo, g.Range)
		guns = append(guns, g)
	}
	return guns, nil
}

// EngineBoxes is the number of damage boxes of one engine: 1 + round(hp / 600), from 2 to 6. A jet's
// power for this purpose is its static thrust in lbf (its thrust horsepower at 375 mph).
func EngineBoxes(hp float64) int { return clamp(1+round(hp/HPPerEngineBox), 2, 6) }

// deriveSystems builds the damage systems .
func deriveSystems(f *File, guns []GunPosition, tr tracef) []System {
	p := f.Performance
	shot := func(letter, name string, boxes int, critical bool) System {
		return System{Letter: letter, Name: name, Boxes: boxes, Critical: critical, Effect: EffectShotDown}
	}
	sys := []System{
		shot("F", "fuselage", round(2*math.Sqrt(p.EmptyWeightLb.Value/1000)), false),
		shot("W", "wings", round(math.Sqrt(p.WingAreaSqFt.Value)/4), false),
	}
	power := 0.0
	if p.EngineHP != nil {
		power = p.EngineHP.Value
	} else if p.EngineThrustLbf != nil {
		power = p.EngineThrustLbf.Value
	}
	eb := EngineBoxes(power)
	sys = append(sys, engineSystems(f.Engines.Count, eb)...)
	crew := 2
	if f.PilotArmour {
		crew++
	}
	if f.Crew >= 4 {
		crew++
	}
	fuel := 2
	if f.SelfSealingTanks {
		fuel++
	}
	sys = append(sys, shot("C", "cockpit and crew", crew, true), shot("L", "fuel lines and tanks", fuel, true))
	for _, g := range guns {
		sys = append(sys, System{Letter: "G", Side: g.Side, Name: "guns: " + g.ID,
			Boxes: 1 + (GunCount(g.Mix)+3)/4, Effect: EffectGunsOut, Guns: g.ID})
	}
	tr("Systems: F %d, W %d, E %d per engine, C %d, L %d.", sys[0].Boxes, sys[1].Boxes, eb, crew, fuel)
	return sys
}

// engineSystems are the E systems: one unsided engine on a single-engine type (its loss downs the
// plane), otherwise left engines, a centre engine if the count is odd, and right engines, each lost on
// its own (engine-out), listed from the left wing tip to the right one.
func engineSystems(n, boxes int) []System {
	e := func(side, name, effect string) System {
		return System{Letter: "E", Side: side, Name: name, Boxes: boxes, Critical: true, Effect: effect}
	}
	if n == 1 {
		return []System{e("", "engine", EffectShotDown)}
	}
	var out []System
	half := n / 2
	name := func(side string, i int) string { // i counts from the wing tip inward
		switch {
		case half == 1:
			return side + " engine"
		case half == 2 && i == 0:
			return side + " outer engine"
		case half == 2:
			return side + " inner engine"
		}
		return fmt.Sprintf("%s engine %d", side, i+1)
	}
	for i := range half {
		out = append(out, e("L", name("left", i), EffectEngineOut))
	}
	if n%2 == 1 {
		out = append(out, e("C", "centre engine", EffectEngineOut))
	}
	for i := half - 1; i >= 0; i-- {
		out = append(out, e("R", name("right", i), EffectEngineOut))
	}
	return out
}

// deriveLoaded gives the loaded condition for a type with a war load: speeds fall by the load's share of
// the weight times the top speed, turn modes rise by 1, and the climb keeps the unloaded share.
func deriveLoaded(f *File, tr tracef) *Loaded {
	if f.Bombs == nil || f.Bombs.Lb <= 0 {
		return nil
	}
	p := f.Performance
	top := 0.0
	for _, pt := range p.TopSpeed {
		top = math.Max(top, pt.MPH)
	}
	share := f.Bombs.Lb / p.LoadedWeightLb.Value
	l := &Loaded{Stores: f.Bombs.Stores, SpeedPenalty: max(1, round(top*share/MPHPerSpeedPoint)), TMPenalty: 1,
		ClimbPercent: round(100 * (1 - share))}
	tr("Loaded (%s, %.0f lb = %.1f%% of %.0f lb): speeds −%d, turn modes +%d, climb %d%%.",
		l.Stores, f.Bombs.Lb, 100*share, p.LoadedWeightLb.Value, l.SpeedPenalty, l.TMPenalty, l.ClimbPercent)
	return l
}
