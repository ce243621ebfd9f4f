package templates

import (
	"fmt"
	"strings"
)

// The data the adjudicator gives the templates, in the shapes it has there (adjudicator imports this
// package, so the tests here cannot import its types): receipt and orderEcho (adjudicator/mail.go),
// reportData with ruleset.Report and ruleset.Unit (rules/ruleset), and the maps of the other mails.
// The mails the real service renders are held byte for byte by the adjudicator's golden tests.

type tReceipt struct {
	RoundNoun   string
	UnitNoun    string
	Game        string
	GameName    string
	Player      string
	Name        string
	Round       int
	Orders      []tOrderEcho
	BlockErrors []string
	Notes       []string
	Missing     []string
	Outstanding []string
	Deadline    string
	Resolving   string
	OrderHeader string
	Status      bool
	Help        bool
	Commands    []tCommand
	Stored      []string
	Exempt      string
	Board       bool
}

type tCommand struct {
	Name, Word, Help string
}

type tOrderEcho struct {
	Unit      string
	Written   string
	Canonical string
	Preview   []string
	Errors    []string
	Warnings  []string
	Stored    bool
	OnFile    bool
	NotDue    bool
	Line      int
}

type tUnit struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Summary string   `json:"summary"`
	Detail  []string `json:"detail"`
}

type tScene struct{ Caption []string }

type tReport struct {
	Side       string
	Round      int
	NextRound  int
	Own        []tUnit
	Contacts   []tUnit
	Ground     []tUnit
	Events     []string
	Dice       []string
	Map        string
	Scene      *tScene
	Over       bool
	Result     string
	OrderLines []string
}

// Picture is a method of the report's, as ruleset.Report has one: no template calls it.
func (r *tReport) Picture() *tScene { return r.Scene }

// Title, NextTitle, Played and BlockWord name rounds, as ruleset.Report's do (methods of the value).
func (r tReport) Title() string     { return fmt.Sprintf("turn %d", r.Round) }
func (r tReport) NextTitle() string { return fmt.Sprintf("turn %d", r.NextRound) }
func (r tReport) Played() string    { return fmt.Sprintf("turn %d", r.Round) }
func (r tReport) BlockWord() string { return "TURN" }

type tReportData struct {
	Unit, Units     string
	RoundNoun       string
	Game            string
	GameName        string
	Player          string
	Name            string
	Kind            string
	Report          tReport
	Deadline        string
	Missed          []string
	Commitment      string
	StateCommitment string
	Position        bool
	Seed            string
	Secret          string
	ReplyTo         string
	OrderHeader     string
	Address         string
	Rules           string
	Notes           []string
	NeedSecret      bool
	WebLink         string
	BoardLink       string
}

// bit says whether bit i of v is set: the variants of the data turn each optional part on and off.
func bit(v, i int) bool { return v>>i&1 == 1 }

func some[T any](on bool, xs ...T) []T {
	if on {
		return xs
	}
	return nil
}

func pick(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

// receiptData is a receipt in variant v (0 to 1<<12-1).
func receiptData(v int) tReceipt {
	rec := tReceipt{RoundNoun: "turn", UnitNoun: "aircraft", Game: "g1", GameName: "Channel, August 1940", Player: "alice", Name: "Alice",
		Round: 3, Deadline: "Wed 25 Nov 2026 09:00 UTC (Wed 10:00 Europe/Paris)", OrderHeader: "GAME g1 TURN 3"}
	if bit(v, 0) {
		rec.RoundNoun, rec.UnitNoun, rec.Round = "round", "squadron", 12
	}
	rec.BlockErrors = some(bit(v, 1), "line 4: no colon after the callsign <RED3>", "line 9: END is missing")
	rec.Notes = some(bit(v, 2), "There was no order block above the quoted report in your mail, so Sortie read the one you filled in below it, at line 31.")
	rec.Board = bit(v, 2) != bit(v, 9)
	if bit(v, 3) {
		rec.Orders = append(rec.Orders, tOrderEcho{Unit: "RED1", Written: "2R 1 TR 1 FIRE KURT", Canonical: "2 TR 1 TR 1 FIRE KURT",
			Errors:   []string{"column 12: TR at MP 5 comes 2 hexes after the last manoeuvre; the Supermarine Spitfire Mk I needs 3 at speed 6"},
			Warnings: []string{`column 8: "R" was read as TR, a turn right`}, Line: 2, OnFile: bit(v, 7)})
	}
	if bit(v, 4) {
		rec.Orders = append(rec.Orders, tOrderEcho{Unit: "RED2", Written: "6 FIRE KURT", Canonical: pick(bit(v, 5), "6 FIRE KURT"), Stored: true,
			Preview: some(bit(v, 6), "MP1 (2,-3) facing 000", "MP2 (2,-4) facing 000", "MP6 (2,-8) facing 000 <- ends here & fires"), Line: 3})
	}
	rec.Stored = some(bit(v, 7), "RED2: 6 FIRE KURT", "RED1: 3 TR 2 HOLD")
	rec.Missing = some(bit(v, 8), "RED1", "RED3")
	rec.Outstanding = some(bit(v, 9), "Bob", "Carol & Dave")
	switch v >> 10 & 3 {
	case 1:
		rec.Exempt = "You are away: the turns do not wait for you; orders you send are still used."
	case 2:
		rec.Resolving = "All orders are in: the round is being resolved now."
	case 3:
		rec.Help, rec.Status = true, true
		rec.Commands = []tCommand{{"STATUS", "STATUS", "what you have on file"}, {"AWAY", "AWAY YYYY-MM-DD", "away until that day:\n                  a second line"}}
	}
	return rec
}

// reportData is a report (or start, or over) in variant v (0 to 1<<12-1).
func reportData(kind string, v int) tReportData {
	d := tReportData{Unit: "aircraft", Units: "aircraft", RoundNoun: "turn", Game: "g1", GameName: "Channel, August 1940", Player: "alice",
		Name: "Alice", Kind: kind, Deadline: "Fri 27 Nov 2026 09:00 UTC", Commitment: strings.Repeat("ab12", 16),
		StateCommitment: strings.Repeat("9f0e", 16), OrderHeader: "GAME g1 TURN 4", Address: "sortie@sortie.test", Rules: "afd",
		ReplyTo: "sortie+0123456789abcdef@sortie.test"}
	d.Report = tReport{Side: "RAF", Round: 3, NextRound: 4,
		Own: []tUnit{{Name: "RED1", Type: "spitfire-i", Summary: "hex (0,-2) facing 000, 12,000 ft, speed 6.0, bank N", Detail: []string{"ammunition (bursts): wing-l 9, wing-r 9"}},
			{Name: "RED2-LONGNAME", Type: "spitfire-i", Summary: "hex (2,-3) facing 000, 12,000 ft, speed 6.0, bank N"}},
		OrderLines: []string{"RED1: 6 FIRE ANY", "RED2-LONGNAME: 6 FIRE ANY"}}
	if bit(v, 0) {
		d.Unit, d.Units, d.RoundNoun = "squadron", "squadrons", "round"
	}
	d.Notes = some(bit(v, 1), "The moderator says: turn 5 is the last.", "Bob is away until 2026-12-01.")
	d.Missed = some(bit(v, 2), "Bob")
	d.Report.Events = some(bit(v, 3), "RED1 flew 6", "RED1 spotted an enemy plane, KURT, at 5 hexes", "RED1 fired at KURT at range 7 (8x30M chart): 0 hits")
	d.Report.Contacts = some(bit(v, 4), tUnit{Name: "KURT", Type: "he-111h", Summary: "hex (1,-7) facing 000, 11,000 ft", Detail: []string{"from RED1: 5 hexes at 12 o'clock", "from RED2: 5 hexes at 12 o'clock"}})
	d.Report.Ground = some(bit(v, 5), tUnit{Name: "TRUCK1", Type: "truck", Summary: "hex (4,4), on the road", Detail: []string{"hits 0 of 2"}})
	d.Report.Map = pick(bit(v, 6), "north is up; columns q -2 to 5\n.   .   .   .\n  .   A   B   .\n\n.   .   1   .\n")
	d.Report.Dice = some(bit(v, 7), "spot RED1>KURT: 4", "fire RED1>KURT red: 3", "fire RED1>KURT white: 2")
	d.Position = bit(v, 8)
	d.NeedSecret = bit(v, 9)
	d.WebLink = pick(bit(v, 10), "https://sortie.example/g/g1/p/0123456789abcdef")
	d.BoardLink = pick(bit(v, 10) && kind != "over", "https://sortie.example/g/g1/p/0123456789abcdef/board")
	if kind == "start" {
		d.Secret = "lark-swift-0001"
		d.OrderHeader += " SECRET lark-swift-0001"
	}
	if kind == "over" {
		d.Seed = strings.Repeat("0011", 16)
		d.Report.Over, d.Report.Result = true, pick(!bit(v, 11), "RAF wins: the bomber turned back")
	}
	if bit(v, 11) {
		d.Report.Scene = &tScene{}
		d.Report.Own = nil
		d.Report.OrderLines = nil
	}
	return d
}

// mapData is the data of the templates the adjudicator gives maps to, in variant v.
func mapData(name string, v int) map[string]any {
	switch name {
	case "help":
		return map[string]any{"Address": "sortie@sortie.test", "Name": "Sortie", "NeedSecret": bit(v, 0),
			"Commands": []tCommand{{"STATUS", "STATUS", "what you have on file"}, {"AWAY", "AWAY YYYY-MM-DD", "away until that day:\n                  a second line"}}}
	case "refusal":
		d := map[string]any{"Game": pick(bit(v, 0), "g1"), "NoSecret": bit(v, 1), "ReplyShape": "sortie+<token>@sortie.test", "NeedSecret": bit(v, 2),
			"Unconfirmed": map[string]string(nil)}
		if bit(v, 3) {
			d["Unconfirmed"] = map[string]string{"Address": "anna@example.net", "Why": "the check its domain asks receiving servers to make (DMARC) failed"}
		}
		return d
	case "error":
		var problems any = some(bit(v, 0), "Sortie found no order block in your mail.", "In the rest of your mail: a quoted report.")
		if bit(v, 1) {
			problems = []fmt.Stringer{stringer("a problem that prints itself")}
		}
		return map[string]any{"Subject": "no orders found", "Problems": problems}
	case "announce":
		d := map[string]any{"Game": "g1", "GameName": "Channel, August 1940", "Text": "Your commands:\n\n  PAUSE\n  RESUME\n"}
		if bit(v, 0) {
			d["Topic"] = "your commands"
		}
		return d
	case "status":
		return map[string]any{"Game": "g1", "Text": "Turn 3 of g1: waiting for Bob (due Fri 27 Nov 2026 09:00 UTC).\n"}
	}
	return nil
}

type stringer string

func (s stringer) String() string { return "<" + string(s) + ">" }

// data is realistic data for each of Names(), in variant v.
func data(name string, v int) any {
	switch name {
	case "receipt":
		return receiptData(v)
	case "report", "start", "over":
		return reportData(name, v)
	}
	return mapData(name, v)
}
