package inmail

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripQuoted returns what the sender wrote in text, without quoted replies and the signature:
//
//   - lines starting (after optional spaces) with '>' are removed;
//   - an attribution line ("On Tue, 3 Nov 2026 at 10:00, Sortie <…> wrote:", also wrapped over up to three
//     lines, and the French, German, Spanish, Italian, Dutch, Portuguese and Scandinavian forms) is removed
//     when quoted lines follow it, and cuts the rest of the text when an original-message or forward
//     header block follows it. Unquoted text after a quote is kept: bottom-posted and interleaved answers
//     survive;
//   - everything is cut from "-----Original Message-----" (and its translations), from
//     "---------- Forwarded message ---------" or "Begin forwarded message:", from a line of underscores
//     followed by a "From:" line (Outlook), from a block of "From:" / "Sent:" / "To:" / "Subject:" lines
//     (Outlook without a separator), and from a signature separator, a line that is exactly "-- " or "--".
//
// Every other line is kept byte for byte, except that trailing white space is removed; blank lines left
// around removed material are merged and blank lines at the start and end dropped. Line ends become LF.
func StripQuoted(text string) string {
	text = normalizeNewlines(text)
	n := strings.Count(text, "\n") + 1
	var linesBuf [64]string
	var removedBuf [64]bool
	lines, removed := linesBuf[:0], removedBuf[:0]
	if n > len(linesBuf) {
		lines, removed = make([]string, 0, n), make([]bool, 0, n)
	}
	for rest := text; ; {
		l, more := rest, false
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			l, rest, more = rest[:i], rest[i+1:], true
		}
		lines = append(lines, quoteTrimRight(l))
		removed = append(removed, false)
		if !more {
			break
		}
	}
	end := n
	// Each check below is tried only on lines that pass a cheap test it implies (quoteMay*), so most
	// lines cost a few byte comparisons; FuzzStripQuoted holds the result to the plain scan.
scan:
	for i := 0; i < n; i++ {
		l := lines[i]
		switch {
		case isQuotedLine(l):
			removed[i] = true
			continue
		case l == "--":
			end = i
			break scan
		case quoteMayMarker(l) && (isOriginalMessageLine(l) || isForwardLine(l)):
			end = i
			break scan
		case quoteMayEndColon(l) && isForwardLine(l):
			end = i
			break scan
		case strings.IndexByte(l, '_') >= 0 && underscoreThenFrom(lines, i):
			end = i
			break scan
		case quoteMayFromKey(l) && headerBlockAt(lines, i):
			end = i
			break scan
		}
		if !quoteMayEndColon(l) && !quoteMayIntro(l) {
			continue // attributionAt would find none
		}
		if k := attributionAt(lines, i); k > 0 {
			j := quoteNextNonBlank(lines, i+k)
			switch {
			case j >= n:
			case isQuotedLine(lines[j]):
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

	// Which lines are kept (removed[i] false), and how long the result is.
	last, size := -1, 0 // the last line kept
	cutSince := false   // material was removed since the last kept line
	for i := 0; i < end; i++ {
		l := lines[i]
		if removed[i] {
			cutSince = true
			continue
		}
		if l == "" {
			if last < 0 || (cutSince && lines[last] == "") {
				removed[i] = true
				continue
			}
		} else {
			cutSince = false
		}
		last = i
		size += len(l) + 1
	}
	for last >= 0 && lines[last] == "" { // blank lines at the end are dropped
		removed[last] = true
		size--
		for last--; last >= 0 && removed[last]; last-- {
		}
	}
	if last < 0 {
		return ""
	}
	var out strings.Builder
	out.Grow(size)
	for i := 0; i <= last; i++ {
		if !removed[i] {
			out.WriteString(lines[i])
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// quoteTrimRight removes trailing spaces and tabs.
func quoteTrimRight(l string) string {
	for len(l) > 0 && (l[len(l)-1] == ' ' || l[len(l)-1] == '\t') {
		l = l[:len(l)-1]
	}
	return l
}

func isQuotedLine(l string) bool {
	for i := 0; i < len(l); i++ {
		if c := l[i]; c != ' ' && c != '\t' {
			return c == '>'
		}
	}
	return false
}

// The quoteMay* tests are cheap necessary conditions of the checks StripQuoted makes of a line (l, a
// line without trailing spaces and tabs): when one is false, its check is false too. They read ASCII
// and answer true at the first other byte, where strings.TrimSpace or strings.ToLower could see
// Unicode white space or a letter that lowers to ASCII (U+0130 İ, U+212A K).

// quoteMayMarker: isOriginalMessageLine and the separator form of isForwardLine need a line that starts
// with "--" once trimmed.
func quoteMayMarker(l string) bool { return strings.Contains(l, "--") }

// quoteMayEndColon: forward intros and one-line attributions need a line that ends in ':' once trimmed.
// Trimming stops at the first byte from the end that is neither a control byte nor beyond ASCII.
func quoteMayEndColon(l string) bool {
	if l == "" {
		return false
	}
	c := l[len(l)-1]
	return c == ':' || c < ' ' || c >= utf8.RuneSelf
}

// quoteSkipSpace returns the index of the first byte of l from i on that is not ASCII white space.
func quoteSkipSpace(l string, i int) int {
	for i < len(l) {
		switch l[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func quoteLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// quoteMayIntro: attributionAt's wrapped form needs the trimmed, lower-cased line to start with one of
// attributionIntros.
func quoteMayIntro(l string) bool {
	i := quoteSkipSpace(l, 0)
	for _, p := range attributionIntros {
		for k := 0; ; k++ {
			if k == len(p) {
				return true
			}
			if i+k >= len(l) {
				break
			}
			c := l[i+k]
			if c >= utf8.RuneSelf {
				return true
			}
			if quoteLowerASCII(c) != p[k] {
				break
			}
		}
	}
	return false
}

// quoteFromFirst holds the first bytes of fromKeys.
var quoteFromFirst = func() (t [utf8.RuneSelf]bool) {
	for k := range fromKeys {
		if k[0] < utf8.RuneSelf {
			t[k[0]] = true
		}
	}
	return t
}()

// quoteMayFromKey: fromHeaderKey needs a colon, and its key (the line trimmed of white space, then of
// stars, then of white space) to start with the first letter of one of fromKeys.
func quoteMayFromKey(l string) bool {
	if strings.IndexByte(l, ':') < 0 {
		return false
	}
	i := quoteSkipSpace(l, 0)
	for i < len(l) && l[i] == '*' {
		i++
	}
	i = quoteSkipSpace(l, i)
	if i >= len(l) {
		return false
	}
	c := l[i]
	return c >= utf8.RuneSelf || quoteFromFirst[quoteLowerASCII(c)]
}

func quoteNextNonBlank(lines []string, i int) int {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return i
}

// quoteMarker lower-cases a separator line and drops the dashes, underscores, stars and spaces
// around it.
func quoteMarker(l string) string {
	return strings.ToLower(strings.TrimFunc(l, func(r rune) bool {
		return r == '-' || r == '_' || r == '*' || r == '=' || unicode.IsSpace(r)
	}))
}

var originalMessageMarkers = map[string]bool{
	"original message": true, "ursprüngliche nachricht": true, "originalnachricht": true,
	"message d'origine": true, "message original": true, "mensaje original": true,
	"messaggio originale": true, "oorspronkelijk bericht": true, "origineel bericht": true,
	"mensagem original": true, "originalmeddelelse": true, "ursprungligt meddelande": true,
	"opprinnelig melding": true, "alkuperäinen viesti": true, "wiadomość oryginalna": true,
}

// isOriginalMessageLine: "-----Original Message-----", "----- Original Message -----" and translations.
func isOriginalMessageLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "--") && originalMessageMarkers[quoteMarker(t)]
}

var forwardMarkers = map[string]bool{
	"forwarded message": true, "weitergeleitete nachricht": true, "message transféré": true,
	"mensaje reenviado": true, "messaggio inoltrato": true, "doorgestuurd bericht": true,
	"mensagem encaminhada": true, "videresendt meddelelse": true, "vidarebefordrat meddelande": true,
}

var forwardIntros = []string{
	"begin forwarded message:", "anfang der weitergeleiteten nachricht:", "début du message réexpédié :",
	"début du message réexpédié:", "inicio del mensaje reenviado:", "inizio messaggio inoltrato:",
}

// isForwardLine: Gmail's "---------- Forwarded message ---------", Thunderbird's
// "-------- Forwarded Message --------", Apple Mail's "Begin forwarded message:", and translations.
func isForwardLine(l string) bool {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "--") && forwardMarkers[quoteMarker(t)] {
		return true
	}
	low := strings.ToLower(t)
	for _, f := range forwardIntros {
		if low == f {
			return true
		}
	}
	return false
}

// isUnderscoreLine: Outlook's "________________________________" before the reply header.
func isUnderscoreLine(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) >= 20 && strings.Trim(t, "_") == ""
}

// underscoreThenFrom: a line of underscores whose next non-blank line is a "From:" line.
func underscoreThenFrom(lines []string, i int) bool {
	if !isUnderscoreLine(lines[i]) {
		return false
	}
	j := quoteNextNonBlank(lines, i+1)
	return j < len(lines) && fromHeaderKey(lines[j])
}

// quoteHeaderKey returns the lower-case key of a "Key: value" line (also "*Key:*" as Gmail writes bold
// labels, and "Key :" with the French space), or "".
func quoteHeaderKey(l string) string {
	t := strings.TrimSpace(l)
	t = strings.TrimLeft(t, "*")
	i := strings.IndexByte(t, ':')
	if i <= 0 || i > 20 {
		return ""
	}
	k := strings.ToLower(strings.TrimSpace(strings.TrimRight(t[:i], "* \u00a0")))
	if strings.ContainsAny(k, "<>@\"") {
		return ""
	}
	return k
}

var (
	fromKeys = map[string]bool{"from": true, "von": true, "de": true, "da": true, "van": true, "från": true,
		"fra": true, "od": true, "lähettäjä": true}
	dateKeys = map[string]bool{"sent": true, "date": true, "gesendet": true, "datum": true, "envoyé": true,
		"enviado": true, "fecha": true, "inviato": true, "data": true, "verzonden": true, "datum verzonden": true,
		"skickat": true, "sendt": true, "wysłano": true, "lähetetty": true}
	toKeys = map[string]bool{"to": true, "cc": true, "an": true, "à": true, "a": true, "para": true,
		"aan": true, "till": true, "til": true, "do": true, "kopie": true, "vastaanottaja": true}
	subjectKeys = map[string]bool{"subject": true, "betreff": true, "objet": true, "asunto": true,
		"oggetto": true, "onderwerp": true, "assunto": true, "ämne": true, "emne": true, "temat": true,
		"aihe": true}
)

func fromHeaderKey(l string) bool { return fromKeys[quoteHeaderKey(l)] }

// headerBlockAt: a "From:" line followed within the next eight lines by at least two of a date ("Sent:",
// "Date:"), a recipient ("To:", "Cc:") and a "Subject:" line: a reply or forward header written
// without a separator line (Outlook).
func headerBlockAt(lines []string, i int) bool {
	if i >= len(lines) || !fromHeaderKey(lines[i]) {
		return false
	}
	var date, to, subject bool
	for j := i + 1; j < len(lines) && j <= i+8; j++ {
		k := quoteHeaderKey(lines[j])
		switch {
		case dateKeys[k]:
			date = true
		case toKeys[k]:
			to = true
		case subjectKeys[k]:
			subject = true
		}
	}
	c := 0
	for _, b := range []bool{date, to, subject} {
		if b {
			c++
		}
	}
	return c >= 2
}

// attributionVerbs end the reply attribution in the languages players are likely to use.
var attributionVerbs = []string{
	"wrote", "writes", "a écrit", "schrieb", "escribió", "ha scritto", "schreef", "escreveu", "skrev",
	"kirjoitti", "napisał", "napisala", "napisal", "írta", "написал", "написала", "yazdı",
}

var attributionIntros = []string{"on ", "le ", "am ", "el ", "il ", "op ", "em ", "den ", "w dniu ", "dne ", "în "}

// attributionAt returns how many lines (1 to 3) form a reply attribution starting at line i, or 0. A
// wrapped attribution must start with an intro word ("On", "Le", "Am", …).
func attributionAt(lines []string, i int) int {
	l := strings.TrimSpace(lines[i])
	if l == "" || len(l) > 400 {
		return 0
	}
	if isAttribution(l) {
		return 1
	}
	low := strings.ToLower(l)
	intro := false
	for _, p := range attributionIntros {
		if strings.HasPrefix(low, p) {
			intro = true
			break
		}
	}
	if !intro {
		return 0
	}
	joined := l
	for k := 1; k < 3 && i+k < len(lines); k++ {
		next := strings.TrimSpace(lines[i+k])
		if next == "" || len(next) > 200 || isQuotedLine(next) {
			return 0
		}
		joined += " " + next
		if isAttribution(joined) {
			return k + 1
		}
	}
	return 0
}

// isAttribution: ends with a colon and holds an attribution verb as a word.
func isAttribution(l string) bool {
	if !strings.HasSuffix(l, ":") {
		return false
	}
	low := strings.ToLower(l)
	for _, v := range attributionVerbs {
		for off := 0; ; {
			i := strings.Index(low[off:], v)
			if i < 0 {
				break
			}
			i += off
			before := i == 0 || !quoteWordRune(quoteLastRune(low[:i]))
			rest := low[i+len(v):]
			after := rest == "" || !quoteWordRune(quoteFirstRune(rest))
			if before && after {
				return true
			}
			off = i + len(v)
		}
	}
	return false
}

func quoteWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func quoteFirstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func quoteLastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}
