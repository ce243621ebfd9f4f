package parser

import (
	"strconv"
	"strings"
)

// Severity says whether a diagnostic stops the plot (an error) or only tells the player how Sortie read
// it (a warning).
type Severity int

const (
	SeverityError   Severity = iota // the plot cannot be used as written
	SeverityWarning                 // the plot was accepted; the message says how it was read
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one fault or remark about a plot, positioned for the player.
type Diagnostic struct {
	Code       string   // stable kebab-case code, one of the Code* constants
	Message    string   // plain English: what is wrong, the text it is about, what was expected
	Col        int      // 1-based column in runes of the offending text; 0 when it is about the whole plot
	Severity   Severity // SeverityError or SeverityWarning
	Suggestion string   // the likely intended text, or "" when there is no single likely reading
}

// Error formats the diagnostic as "col 5: message (did you mean X?)"; warnings say so after the column.
func (d Diagnostic) Error() string {
	var b strings.Builder
	if d.Col > 0 {
		b.WriteString("col ")
		b.WriteString(strconv.Itoa(d.Col))
		b.WriteString(": ")
	}
	if d.Severity == SeverityWarning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Message)
	if d.Suggestion != "" {
		b.WriteString(" (did you mean ")
		b.WriteString(d.Suggestion)
		b.WriteString("?)")
	}
	return b.String()
}

// HasErrors reports whether any diagnostic is an error (warnings do not count).
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Diagnostic codes. They are stable: other layers and players' tools may match on them.
const (
	// Whole-plot faults.
	CodeTooLong = "plot-too-long" // more than MaxPlotRunes runes
	CodeEmpty   = "empty"         // nothing to read

	// Words.
	CodeUnknownToken    = "unknown-token"    // a word that is no token and no tokens run together
	CodeGluedLetters    = "glued-letters"    // several tokens written without a separator (TRTR)
	CodeLowercase       = "lowercase"        // warning: lower-case letters read as upper case
	CodeAlias           = "alias"            // warning: an accepted alias (R, L, RR, RL) echoed canonically
	CodeSkidDirection   = "skid-direction"   // SRTR / SLTL: a skid turn turns against its slip
	CodeImmelmannForm   = "immelmann-form"   // VR, VL, VRL, VLR: an Immelmann is VRR or VLL
	CodeBankWhichWay    = "bank-which-way"   // bare B
	CodeSplitToken      = "split-token"      // S R, T L, H R: one token written in two parts
	CodeIncompleteToken = "incomplete-token" // a lone S, T or H with no side
	CodeFireOrder       = "fire-order"       // FIRE / HOLD inside the movement plot
	CodeNonASCII        = "non-ascii-letter" // a word with letters outside A-Z

	// Numbers.
	CodeLetterO      = "letter-o"       // the letter O written where a digit 0 belongs (1O, O2)
	CodeZeroHexes    = "zero-hexes"     // a straight run of 0
	CodeTooManyHexes = "too-many-hexes" // a straight run above 99

	// Characters.
	CodePunctuation = "punctuation"  // stray punctuation: ; : / ! ? ( ...
	CodeTrailingDot = "trailing-dot" // warning: one full stop at the end, ignored
	CodeQuotes      = "quotes"       // warning: quotation marks, read as separators
	CodeBadChar     = "bad-char"     // control characters, emoji, other symbols, broken UTF-8

	// Power and brake.
	CodePowerRange = "power-range" // P0, P10, PPPPPPPPPP...
	CodeBrakeRange = "brake-range" // K0, K10 ...
	CodeFactorForm = "factor-form" // PP2, KK3: digits only after a single P or K

	// Altitude.
	CodeAltMultiple = "alt-multiple" // a figure in feet that is no multiple of 100 (+150)
	CodeAltRange    = "alt-range"    // a figure too large to be a climb or dive (+999999)
	CodeAltZero     = "alt-zero"     // warning: +0 or -0, no figure recorded
	CodeDash        = "dash"         // warning: a Unicode minus or dash read as '-'
	CodeSignSpace   = "sign-space"   // + or - separated from its digits (+ 10)
	CodeLoneSign    = "lone-sign"    // + or - with no figure after it
	CodeMissingSign = "missing-sign" // 1000FT: a figure in feet without + or -
	CodeStrayFT     = "stray-ft"     // FT with no altitude figure before it

	// Flags and adjustments.
	CodeDuplicate    = "duplicate"      // STEEP, VERT, BOMB, power, brake or altitude given twice
	CodeSteepAndVert = "steep-and-vert" // STEEP and VERT in the same plot
	CodeSCNeedsClimb = "sc-needs-climb" // SC without a positive altitude figure
	CodeSDClimb      = "sd-climb"       // SD with a positive altitude figure
)
