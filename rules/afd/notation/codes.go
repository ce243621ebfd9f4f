package notation

// Diagnostic codes of the Air Force plot notation, beside the shared ones of package parser. They are
// stable: other layers and players' tools may match on them.
const (
	CodeGluedLetters    = "glued-letters"    // several tokens written without a separator (TRTR)
	CodeAlias           = "alias"            // warning: an accepted alias (R, L, RR, RL) echoed canonically
	CodeSkidDirection   = "skid-direction"   // SRTR / SLTL: a skid turn turns against its slip
	CodeImmelmannForm   = "immelmann-form"   // VR, VL, VRL, VLR: an Immelmann is VRR or VLL
	CodeBankWhichWay    = "bank-which-way"   // bare B
	CodeSplitToken      = "split-token"      // S R, T L, H R: one token written in two parts
	CodeIncompleteToken = "incomplete-token" // a lone S, T or H with no side
	CodeFireOrder       = "fire-order"       // FIRE / HOLD inside the movement plot
	CodeLetterO         = "letter-o"         // the letter O written where a digit 0 belongs (1O, O2)
	CodeZeroHexes       = "zero-hexes"       // a straight run of 0
	CodeTooManyHexes    = "too-many-hexes"   // a straight run above 99
	CodePowerRange      = "power-range"      // P0, P10, PPPPPPPPPP...
	CodeBrakeRange      = "brake-range"      // K0, K10 ...
	CodeFactorForm      = "factor-form"      // PP2, KK3: digits only after a single P or K
	CodeAltMultiple     = "alt-multiple"     // a figure in feet that is no multiple of 100 (+150)
	CodeAltRange        = "alt-range"        // a figure too large to be a climb or dive (+999999)
	CodeAltZero         = "alt-zero"         // warning: +0 or -0, no figure recorded
	CodeDash            = "dash"             // warning: a Unicode minus or dash read as '-'
	CodeSignSpace       = "sign-space"       // + or - separated from its digits (+ 10)
	CodeLoneSign        = "lone-sign"        // + or - with no figure after it
	CodeMissingSign     = "missing-sign"     // 1000FT: a figure in feet without + or -
	CodeStrayFT         = "stray-ft"         // FT with no altitude figure before it
	CodeSteepAndVert    = "steep-and-vert"   // STEEP and VERT in the same plot
	CodeTwoAttacks      = "two-attacks"      // two of BOMB, ROCKET and STRAFE in one plot
	CodeAttackTarget    = "attack-target"    // AT without an attack, or without a target
	CodeSCNeedsClimb    = "sc-needs-climb"   // SC without a positive altitude figure
	CodeSDClimb         = "sd-climb"         // SD with a positive altitude figure
)
