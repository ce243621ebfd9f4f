package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sortie/rules/ruleset/rulesettest"
)

// orderExample is one ```orderblock block of docs/orders.md:
//
//	input:               the mail: the lines below it indented by two spaces (the two spaces are not
//	  GAME chan-1          part of the mail; an empty line inside is an empty mail line)
//	input: TEXT          or a one-line mail
//	game: NAME           Block.Game          turn: N    Block.Turn
//	secret: WORD         Block.Secret        player: ID Block.Player
//	order: CS: ORDER     each order as echoed, in order; when any is given the list is exact
//	order: none          no orders at all
//	command: TEXT        each command as echoed ("RESEND TURN 2"), exact list; "command: none" for none
//	refused: CS          each refused order line's callsign, exact list; "refused: none" for none
//	help-only: yes|no    Block.HelpOnly
//	canonical:           Block.Canonical(), indented like input
//	error: CODE [at N]   a diagnostic that must be present, on line N (0: the whole mail); the errors
//	warning: CODE [at N]   must be exactly the listed ones, warnings not listed are allowed
//	col: N               the Col of the error/warning line just above
//	suggest: TEXT        the Suggestion of the error/warning line just above
//
// An example without errors must also round-trip: its canonical form with the secret reads back as an
// equal block.
type orderExample struct {
	line      int // line of the opening fence
	input     *string
	fields    map[string]string
	orders    *[]string
	commands  *[]string
	refused   *[]string
	canonical *string
	diags     []rulesettest.DocDiag
}

// orderBlocks extracts the ```orderblock blocks of the guide at path; other blocks are skipped. A guide
// without one fails t.
func orderBlocks(t *testing.T, path string) []orderExample {
	t.Helper()
	var out []orderExample
	for _, b := range rulesettest.DocBlocks(t, path, "orderblock") {
		out = append(out, parseOrderExample(t, b.Line, b.Lines))
	}
	if len(out) == 0 {
		t.Fatalf("%s has no ```orderblock examples", path)
	}
	return out
}

// indented collects the lines after body[k] that are indented by two spaces, or empty with indented lines
// after them; it returns the text (two spaces removed) and the index of the next unread line.
func indented(body []string, k int) (string, int) {
	var got []string
	j := k + 1
	for ; j < len(body); j++ {
		l := body[j]
		if strings.HasPrefix(l, "  ") {
			got = append(got, l[2:])
			continue
		}
		if strings.TrimSpace(l) == "" {
			got = append(got, "")
			continue
		}
		break
	}
	for len(got) > 0 && got[len(got)-1] == "" {
		got = got[:len(got)-1]
		j--
	}
	return strings.Join(got, "\n"), j
}

func parseOrderExample(t *testing.T, line int, body []string) orderExample {
	t.Helper()
	ex := orderExample{line: line, fields: map[string]string{}}
	list := func(p **[]string, v string) {
		if *p == nil {
			*p = &[]string{}
		}
		if v != "none" {
			**p = append(**p, v)
		}
	}
	for k := 0; k < len(body); k++ {
		l := body[k]
		where := fmt.Sprintf("orders.md:%d", line+1+k)
		if strings.TrimSpace(l) == "" {
			continue
		}
		key, val := keyValue(t, where, l)
		if rulesettest.ReadDocDiag(t, where, &ex.diags, key, val) {
			continue
		}
		switch key {
		case "input", "canonical":
			text := val
			if val == "" {
				var next int
				text, next = indented(body, k)
				k = next - 1
			}
			if key == "input" {
				if ex.input != nil {
					t.Fatalf("%s: two inputs in one block; give one example per block", where)
				}
				ex.input = &text
			} else {
				text += "\n"
				ex.canonical = &text
			}
		case "game", "turn", "secret", "player", "help-only":
			ex.fields[key] = val
		case "order":
			list(&ex.orders, val)
		case "command":
			list(&ex.commands, val)
		case "refused":
			list(&ex.refused, val)
		default:
			t.Fatalf("%s: unknown key %q", where, key)
		}
	}
	if ex.input == nil {
		t.Fatalf("orders.md:%d: orderblock without input:", line)
	}
	return ex
}

func TestOrdersDoc(t *testing.T) {
	for _, ex := range orderBlocks(t, "../../../docs/orders.md") {
		t.Run(fmt.Sprintf("line%d", ex.line), func(t *testing.T) {
			checkOrderExample(t, ex)
		})
	}
}

func checkOrderExample(t *testing.T, ex orderExample) {
	t.Helper()
	b, ds := readBlock(*ex.input)
	where := fmt.Sprintf("orders.md:%d", ex.line)
	wantErrors := rulesettest.CheckDocDiags(t, where, ex.diags, ds)
	str := map[string]string{"game": b.Game, "turn": strconv.Itoa(b.Turn), "secret": b.Secret, "player": b.Player,
		"help-only": map[bool]string{true: "yes", false: "no"}[b.HelpOnly]}
	for k, v := range ex.fields {
		if str[k] != v {
			t.Errorf("%s: %s is %q, the example says %q", where, k, str[k], v)
		}
	}
	compare := func(what string, want *[]string, got []string) {
		if want != nil && !slices.Equal(got, *want) {
			t.Errorf("%s: %s %q, the example says %q", where, what, got, *want)
		}
	}
	compare("orders", ex.orders, orderStrings(b.Orders))
	compare("commands", ex.commands, commandStrings(b.Commands))
	var refused []string
	for _, o := range b.Refused {
		refused = append(refused, o.Callsign)
	}
	compare("refused", ex.refused, refused)
	if ex.canonical != nil && b.Canonical() != *ex.canonical {
		t.Errorf("%s: canonical form\n%s\nthe example says\n%s", where, b.Canonical(), *ex.canonical)
	}
	if wantErrors == 0 {
		checkRoundTrip(t, *ex.input, b)
	}
}

// The extractor reads only ```orderblock blocks, multi-line inputs keep their blank lines, and "none"
// means an empty list.
func TestOrderBlocksExtractor(t *testing.T) {
	doc := "x\n```plot\ninput: 2 TR\n```\n```orderblock\ninput:\n  hello\n\n  GAME g\n  RED1: 5\n\norder: RED1: 5 FIRE ANY\n" +
		"command: none\nerror: no-block at 0\ncol: 3\n```\n```\nplain\n```\n"
	got := orderBlocks(t, writeDoc(t, doc))
	if len(got) != 1 {
		t.Fatalf("orderBlocks = %+v", got)
	}
	ex := got[0]
	if *ex.input != "hello\n\nGAME g\nRED1: 5" || len(*ex.orders) != 1 || (*ex.orders)[0] != "RED1: 5 FIRE ANY" ||
		ex.commands == nil || len(*ex.commands) != 0 || len(ex.diags) != 1 || ex.diags[0].Line == nil || *ex.diags[0].Line != 0 || *ex.diags[0].Col != 3 {
		t.Fatalf("parsed %+v", ex)
	}
}
