package adjudicator

// Orders written where the block stands in the quoted report. Some mail programs (Outlook above all)
// put the report a player answers below a "-----Original Message-----" line without '>' marks, and the
// orders guide tells players they may fill in the block where it stands. The mailer cuts everything
// from that line on (the order text is what the player wrote above it), so such a mail holds no block;
// the adjudicator then looks in the whole mail for one it can use, and says which one it used.

import (
	"fmt"
	"strings"

	"sortie/parser"
	"sortie/storage"
)

// maxBlocksBelow is how many GAME lines of a mail are tried: a real reply holds one or two.
const maxBlocksBelow = 4

// belowQuote is what the whole mail offered when the order text held no block.
type belowQuote struct {
	text string // the mail with every line above the block used blanked (line numbers stay the mail's)
	line int    // the block's GAME line in the mail, when one was used
	// why says why the blocks found there were not used, or that the only GAME line is '>'-quoted.
	why []string
}

// blockBelowQuote looks in the whole mail (env.Full) for an unquoted order block that the order text did
// not hold: one that identifies its sender (reply address or secret) in a running game and is for that
// game's current turn. The first such block from the top is used. A block that does not qualify is
// described, never used.
func (s *Service) blockBelowQuote(tx *storage.Tx, env Envelope) belowQuote {
	var out belowQuote
	if env.Full == "" {
		return out
	}
	lines := strings.Split(strings.ReplaceAll(env.Full, "\r\n", "\n"), "\n")
	quoted, tried := false, 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ">") {
			w := strings.Fields(strings.TrimLeft(t, "> \t"))
			quoted = quoted || len(w) > 0 && strings.EqualFold(w[0], "GAME")
			continue
		}
		if w := strings.Fields(t); len(w) == 0 || !strings.EqualFold(w[0], "GAME") {
			continue
		}
		if tried++; tried > maxBlocksBelow {
			break
		}
		blanked := make([]string, len(lines))
		copy(blanked[i:], lines[i:])
		text := strings.Join(blanked, "\n")
		b, ds := parser.ParseBlock(text)
		if !b.Found {
			continue
		}
		where := fmt.Sprintf("the block at line %d of your mail", i+1)
		if parser.BlockRefused(ds) {
			out.why = append(out.why, where+" has faults in its GAME line")
			continue
		}
		seat, g, err := s.identifyQuietly(tx, env, b)
		switch {
		case err != nil || seat == nil:
			out.why = append(out.why, where+" does not identify you: reply to the report (its reply address identifies you) or give your SECRET")
		case g.Status != StatusRunning:
			out.why = append(out.why, fmt.Sprintf("%s is for game %s, which has ended", where, g.ID))
		case b.Turn != g.Round:
			turn := "names no turn"
			if b.Turn > 0 {
				turn = fmt.Sprintf("is for turn %d", b.Turn)
			}
			out.why = append(out.why, fmt.Sprintf("%s %s, and game %s is at turn %d", where, turn, g.ID, g.Round))
		default:
			out.text, out.line, out.why = text, i+1, nil
			return out
		}
	}
	if len(out.why) == 0 && quoted {
		out.why = []string{"the only GAME line Sortie found is quoted (it starts with >): copy the block out of the quoted report, fill it in and send it without the > marks"}
	}
	return out
}
