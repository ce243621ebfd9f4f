package parser

import (
	"fmt"
	"strconv"
	"strings"
)

// Severity says whether a diagnostic stops the order (an error) or only tells the player how Sortie read
// it (a warning).
type Severity int

const (
	SeverityError   Severity = iota // the order cannot be used as written
	SeverityWarning                 // the order was accepted; the message says how it was read
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one fault or remark about an order, positioned for the player.
type Diagnostic struct {
	Code       string   // stable kebab-case code, one of the Code* constants
	Message    string   // plain English: what is wrong, the text it is about, what was expected
	Col        int      // 1-based column in runes of the offending text; 0 when it is about the whole order
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

// Errorf is an error at column col with a code, a suggestion ("" for none) and a message made as
// fmt.Sprintf makes it.
func Errorf(col int, code, suggest, format string, args ...any) Diagnostic {
	return Diagnostic{Code: code, Col: col, Severity: SeverityError, Suggestion: suggest, Message: fmt.Sprintf(format, args...)}
}

// Warnf is a warning, made as Errorf makes an error.
func Warnf(col int, code, suggest, format string, args ...any) Diagnostic {
	return Diagnostic{Code: code, Col: col, Severity: SeverityWarning, Suggestion: suggest, Message: fmt.Sprintf(format, args...)}
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

// Diagnostic codes every game's notation may give. They are stable: other layers and players' tools may
// match on them. Each notation adds codes of its own.
const (
	CodeTooLong      = "order-too-long"   // longer than the notation reads (an Air Force plot: 300 runes)
	CodeEmpty        = "empty"            // nothing to read
	CodeUnknownToken = "unknown-token"    // a word that is no token and no tokens run together
	CodeLowercase    = "lowercase"        // warning: lower-case letters read as upper case
	CodeNonASCII     = "non-ascii-letter" // a word with letters outside A-Z
	CodePunctuation  = "punctuation"      // stray punctuation: ; : / ! ? ( ...
	CodeTrailingDot  = "trailing-dot"     // warning: one full stop at the end, ignored
	CodeQuotes       = "quotes"           // warning: quotation marks, read as separators
	CodeBadChar      = "bad-char"         // control characters, emoji, other symbols, broken UTF-8
	CodeDuplicate    = "duplicate"        // STEEP, VERT, BOMB, power, brake or altitude given twice

	// A standing fire order, in any game that has one.
	CodeFireTarget   = "fire-target"
	CodeFireSyntax   = "fire-syntax"
	CodeFireRange    = "fire-range"
	CodeFireTwice    = "fire-twice"
	CodeFireAfterEnd = "fire-trailing"
)
