package inmail

import (
	"strings"
	"testing"
)

func TestStripQuoted(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"plain", "GAME x\nRED1: 2R  1 TR\nEND\n", "GAME x\nRED1: 2R  1 TR\nEND\n"},
		{"inner spaces and tabs kept, trailing trimmed", "  RED1:\t2R   1 \t \nEND  \n", "  RED1:\t2R   1\nEND\n"},
		{"CRLF", "GAME\r\nEND\r\n", "GAME\nEND\n"},
		{"no final newline", "GAME\nEND", "GAME\nEND\n"},
		{"empty", "", ""},
		{"only quotes", "> a\n> b\n", ""},
		{"quoted lines, with leading spaces", "RED1: 5\n  > old\n\t> old\n>>old\nEND\n", "RED1: 5\nEND\n"},
		{"top-posted, attribution and quote", "RED1: 5\n\nOn Tue, 3 Nov 2026 at 10:00, Sortie <s@example.org> wrote:\n\n> RED1: 3\n> END\n",
			"RED1: 5\n"},
		{"attribution wrapped over two lines", "RED1: 5\n\nOn Tue, 3 Nov 2026 at 10:00, Sortie Adjudicator <sortie@games.example.org>\nwrote:\n\n> RED1: 3\n",
			"RED1: 5\n"},
		{"attribution wrapped over three lines", "RED1: 5\nOn Tuesday, November 3, 2026 at 10:00:00 AM GMT,\nSortie Adjudicator\n<sortie@games.example.org> wrote:\n> x\n",
			"RED1: 5\n"},
		{"bottom-posted: answer after the quote survives", "On 03/11/2026 10:00, Sortie wrote:\n> report\n> RED1: 3\n\nRED1: 5\nEND\n",
			"RED1: 5\nEND\n"},
		{"interleaved", "On Tue, Sortie wrote:\n> RED1 plot?\nRED1: 5\n> RED2 plot?\nRED2: 4\n", "RED1: 5\nRED2: 4\n"},
		{"attribution without quote is kept", "Alice wrote:\nRED1: 5\n", "Alice wrote:\nRED1: 5\n"},
		{"attribution at the end is kept", "RED1: 5\nOn Tue, Sortie wrote:\n", "RED1: 5\nOn Tue, Sortie wrote:\n"},
		{"attribution then header block", "RED1: 5\n\nOn Tue, Sortie wrote:\n\nFrom: Sortie <s@example.org>\nSent: Tuesday\nTo: me\nSubject: report\n\nRED1: 3\n",
			"RED1: 5\n"},
		{"attribution then original message", "RED1: 5\nOn Tue, Sortie wrote:\n-----Original Message-----\nRED1: 3\n", "RED1: 5\n"},
		{"German", "RED1: 5\n\nAm 03.11.2026 um 10:00 schrieb Sortie Adjudicator <sortie@games.example.org>:\n\n> RED1: 3\n", "RED1: 5\n"},
		{"German wrapped", "RED1: 5\nAm 03.11.2026 um 10:00 schrieb Sortie Adjudicator\n<sortie@games.example.org>:\n> RED1: 3\n", "RED1: 5\n"},
		{"French", "RED1: 5\n\nLe mar. 3 nov. 2026 à 10:00, Sortie <s@example.org> a écrit :\n\n> RED1: 3\n", "RED1: 5\n"},
		{"Spanish", "RED1: 5\nEl mar, 3 nov 2026 a las 10:00, Sortie (<s@example.org>) escribió:\n> RED1: 3\n", "RED1: 5\n"},
		{"verb must be a word", "Rewrote:\n> x\nRED1: 5\n", "Rewrote:\nRED1: 5\n"},
		{"Outlook original message", "RED1: 5\n\n-----Original Message-----\nFrom: Sortie\nRED1: 3\n", "RED1: 5\n"},
		{"Outlook Express original message", "RED1: 5\n----- Original Message -----\nRED1: 3\n", "RED1: 5\n"},
		{"German Outlook", "RED1: 5\n-----Ursprüngliche Nachricht-----\nRED1: 3\n", "RED1: 5\n"},
		{"Thunderbird forward", "RED1: 5\n-------- Forwarded Message --------\nSubject: x\nRED1: 3\n", "RED1: 5\n"},
		{"Gmail forward", "see below\n\n---------- Forwarded message ---------\nFrom: Sortie <s@example.org>\nRED1: 3\n", "see below\n"},
		{"Apple forward", "see below\nBegin forwarded message:\n\nFrom: Sortie\nRED1: 3\n", "see below\n"},
		{"Outlook underscores then From", "RED1: 5\nSam\n________________________________\nFrom: Sortie <s@example.org>\nSent: Tuesday\nRED1: 3\n", "RED1: 5\nSam\n"},
		{"underscores without From", "RED1: 5\n______________________________\nRED2: 4\n", "RED1: 5\n______________________________\nRED2: 4\n"},
		{"header block without separator", "RED1: 5\nTom\n\nFrom: Sortie Adjudicator <s@example.org>\nSent: Tuesday, November 3, 2026 10:00 AM\nTo: Tom <t@example.org>\nSubject: report\n\nRED1: 3\n",
			"RED1: 5\nTom\n"},
		{"Gmail bold header block", "RED1: 5\n*From:* Sortie <s@example.org>\n*Date:* Tue, Nov 3, 2026\n*Subject:* report\n*To:* me\nRED1: 3\n", "RED1: 5\n"},
		{"German header block", "RED1: 5\nVon: Sortie <s@example.org>\nGesendet: Dienstag, 3. November 2026 10:00\nAn: Jürgen\nBetreff: report\nRED1: 3\n", "RED1: 5\n"},
		{"French header block", "RED1: 5\nDe : Sortie <s@example.org>\nEnvoyé : mardi 3 novembre 2026 10:00\nÀ : Zoé\nObjet : report\nRED1: 3\n", "RED1: 5\n"},
		{"lone From line is kept", "From: RED squadron\nRED1: 5\n", "From: RED squadron\nRED1: 5\n"},
		{"signature", "RED1: 5\n-- \nAlice\nRED9: 1\n", "RED1: 5\n"},
		{"signature without space", "RED1: 5\n--\nAlice\n", "RED1: 5\n"},
		{"signature CRLF", "RED1: 5\r\n-- \r\nAlice\r\n", "RED1: 5\n"},
		{"not signatures", "RED1: 5\n---\n -- \n-- x\nEND\n", "RED1: 5\n---\n --\n-- x\nEND\n"},
		{"blank lines around removals merged", "a\n\n> q\n\n> q\n\nb\n\n\nc\n", "a\n\nb\n\n\nc\n"},
		{"leading blank lines dropped", "\n\n> q\n\nRED1: 5\n", "RED1: 5\n"},
		{"quote marker with no space", ">RED1: 3\nRED1: 5\n", "RED1: 5\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := StripQuoted(c.in); got != c.want {
				t.Errorf("StripQuoted(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// The quoted report must not survive in any of the shapes a reply takes.
func TestStripQuotedReport(t *testing.T) {
	report := "Sortie · game chan-1 · turn 1 resolved\n\nYour plots for turn 1, as read:\nGAME chan-1 TURN 1 SECRET lark\nRED1: 3 TL 2 FIRE ANY\nEND\n\n-- \nSortie\n"
	answer := "GAME chan-1 TURN 2 SECRET lark\nRED1: 2R 1 TR FIRE ANY\nEND\n"
	quoted := ""
	for _, l := range strings.Split(strings.TrimSuffix(report, "\n"), "\n") {
		quoted += strings.TrimRight("> "+l, " ") + "\n"
	}
	for name, in := range map[string]string{
		"top-posted >":         answer + "\nOn Tue, 3 Nov 2026 at 10:00, Sortie <s@example.org> wrote:\n\n" + quoted,
		"bottom-posted >":      "On Tue, 3 Nov 2026 at 10:00, Sortie <s@example.org> wrote:\n" + quoted + "\n" + answer,
		"original message":     answer + "\n-----Original Message-----\nFrom: Sortie\nSent: Tuesday\n\n" + report,
		"Outlook header block": answer + "\nFrom: Sortie <s@example.org>\nSent: Tuesday\nTo: me\nSubject: report\n\n" + report,
		"Outlook web":          answer + "\n________________________________\nFrom: Sortie <s@example.org>\nSent: Tuesday\n\n" + report,
		"forwarded":            answer + "\n---------- Forwarded message ---------\nFrom: Sortie <s@example.org>\n\n" + report,
	} {
		if got := StripQuoted(in); got != answer {
			t.Errorf("%s:\n got %q\nwant %q", name, got, answer)
		}
	}
}

// isLineSubsequence reports whether every line of out is a line of in (trailing white space trimmed), in order.
func isLineSubsequence(in, out string) bool {
	src := strings.Split(strings.ReplaceAll(strings.ReplaceAll(in, "\r\n", "\n"), "\r", "\n"), "\n")
	i := 0
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if out == "" {
			break
		}
		for i < len(src) && strings.TrimRight(src[i], " \t") != l {
			i++
		}
		if i == len(src) {
			return false
		}
		i++
	}
	return true
}

// refStripQuoted is the first StripQuoted: every check tried on every line, the lines split and joined
// with the strings package. StripQuoted must give what it gives, for any text.
func refStripQuoted(text string) string {
	lines := strings.Split(normalizeNewlines(text), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	n := len(lines)
	removed := make([]bool, n)
	end := n
scan:
	for i := 0; i < n; i++ {
		l := lines[i]
		switch {
		case refIsQuotedLine(l):
			removed[i] = true
			continue
		case l == "--" || isOriginalMessageLine(l) || isForwardLine(l):
			end = i
			break scan
		case underscoreThenFrom(lines, i):
			end = i
			break scan
		case headerBlockAt(lines, i):
			end = i
			break scan
		}
		if k := attributionAt(lines, i); k > 0 {
			j := quoteNextNonBlank(lines, i+k)
			switch {
			case j >= n:
			case refIsQuotedLine(lines[j]):
				for a := i; a < i+k; a++ {
					removed[a] = true
				}
				i += k - 1
			case isOriginalMessageLine(lines[j]) || isForwardLine(lines[j]) || headerBlockAt(lines, j) ||
				underscoreThenFrom(lines, j):
				end = i
				break scan
			}
		}
	}

	out := make([]string, 0, end)
	cutSince := false // material was removed since the last kept line
	for i := 0; i < end; i++ {
		l := lines[i]
		if removed[i] {
			cutSince = true
			continue
		}
		if l == "" {
			if len(out) == 0 || (cutSince && out[len(out)-1] == "") {
				continue
			}
		} else {
			cutSince = false
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

func refIsQuotedLine(l string) bool {
	return strings.HasPrefix(strings.TrimLeft(l, " \t"), ">")
}

func FuzzStripQuoted(f *testing.F) {
	f.Add("GAME x\nRED1: 5\nEND\n-- \nsig\n")
	f.Add("a\n\nOn Tue, 3 Nov 2026 at 10:00, Sortie <s@example.org>\nwrote:\n\n> q\n")
	f.Add("a\r\n________________________________\r\nFrom: x\r\nSent: y\r\n")
	f.Add("From: a\nSent: b\nTo: c\nSubject: d\n")
	f.Add("Am 1 schrieb x:\n>\n-----Original Message-----\n")
	f.Add("\u0130l 3 nov, X a \u00e9crit:\n> q\nsmile\n") // İ lowers to i
	f.Add("\u00a0*\u00a0From: a\nSent: b\nTo: c\n")
	f.Add("Begin forwarded message:\u00a0\n\nx")
	f.Add("  ON  Mon\nX\nwrote:\n\n> q\nEL x\n______________________\n\n *From: y\n")
	f.Add("în 3 nov, X a scris:\n> q\n")
	f.Add("A\n\u0130l 3 nov 2026, X\nha scritto:\n\n> q\n")
	f.Fuzz(func(t *testing.T, in string) {
		out := StripQuoted(in)
		if want := refStripQuoted(in); out != want {
			t.Fatalf("StripQuoted(%q) = %q, the plain scan gives %q", in, out, want)
		}
		if !isLineSubsequence(in, out) {
			t.Fatalf("StripQuoted(%q) = %q: not a subsequence of the input lines", in, out)
		}
		if strings.Contains(out, "\r") {
			t.Fatalf("StripQuoted(%q) = %q holds a CR", in, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if isQuotedLine(l) {
				t.Fatalf("StripQuoted(%q) = %q keeps a quoted line", in, out)
			}
		}
	})
}

// StripQuoted gives what the plain scan gives over every corpus message and every case above.
func TestStripQuotedAsBefore(t *testing.T) {
	var texts []string
	for _, c := range corpusCases {
		m, err := Parse(readCorpusFile(t, c.file))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, m.Text)
	}
	texts = append(texts, "\u0130l 3 nov, X a \u00e9crit:\n> q\n", "A\n\u0130l 3 nov 2026, X\nha scritto:\n\n> q\n", " \u00a0*\u00a0From: a\nSent: b\nTo: c\n", "Begin forwarded message:\u00a0\n\nx",
		"A\n\nOn Mon, 1 Jan\n2026, X\nwrote:\n\n> q\nb\n", strings.Repeat("x\n", 100)+"-- \nsig\n", strings.Repeat("> q\n\n", 80)+"end\n\n\n")
	for _, in := range texts {
		if got, want := StripQuoted(in), refStripQuoted(in); got != want {
			t.Errorf("StripQuoted(%q) = %q, the plain scan gives %q", in, got, want)
		}
	}
}
