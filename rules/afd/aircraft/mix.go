package aircraft

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Weapon kinds of a mix, in the order a mix is printed (
// cannon, smaller before larger).
const (
	Kind30M = "30M" // rifle-calibre machine gun, about 7.7 mm
	Kind50M = "50M" // heavy machine gun, 12.7-13 mm
	Kind20C = "20C" // 20 mm cannon
	Kind30C = "30C" // 30 mm cannon
	Kind37C = "37C" // 37 mm cannon
)

// MixKinds lists the weapon kinds in print order.
var MixKinds = []string{Kind30M, Kind50M, Kind20C, Kind30C, Kind37C}

func kindIndex(k string) int {
	for i, m := range MixKinds {
		if m == k {
			return i
		}
	}
	return -1
}

// ParseMix reads a weapon mix such as "2x30M+2x20C" into counts per kind, indexed like MixKinds. Each term
// is N x KIND with N a positive whole number; a kind may appear only once; terms must be in print order.
func ParseMix(mix string) ([]int, error) {
	counts := make([]int, len(MixKinds))
	if strings.TrimSpace(mix) == "" {
		return nil, errors.New("empty weapon mix")
	}
	last := -1
	for _, term := range strings.Split(mix, "+") {
		n, kind, ok := strings.Cut(term, "x")
		if !ok {
			return nil, fmt.Errorf("weapon mix %q: term %q is not NxKIND (e.g. 2x30M)", mix, term)
		}
		count, err := strconv.Atoi(n)
		if err != nil || count < 1 || n != strconv.Itoa(count) {
			return nil, fmt.Errorf("weapon mix %q: term %q needs a positive count", mix, term)
		}
		k := kindIndex(kind)
		if k < 0 {
			return nil, fmt.Errorf("weapon mix %q: unknown weapon kind %q (want one of %s)", mix, kind, strings.Join(MixKinds, ", "))
		}
		if k <= last {
			return nil, fmt.Errorf("weapon mix %q: %s repeated or out of order (print order is %s)", mix, kind, strings.Join(MixKinds, ", "))
		}
		last = k
		counts[k] = count
	}
	return counts, nil
}

// FormatMix prints counts per kind (indexed like MixKinds) as a mix; it returns "" when all are zero.
func FormatMix(counts []int) string {
	var terms []string
	for i, n := range counts {
		if i < len(MixKinds) && n > 0 {
			terms = append(terms, fmt.Sprintf("%dx%s", n, MixKinds[i]))
		}
	}
	return strings.Join(terms, "+")
}

// CombineMix adds weapon mixes together, kind by kind, and prints the sum in print order: the mix of guns
// that fire together chooses the gunnery chart (seed 000, combat section). So the Spitfire I's two wing
// positions, "4x30M" and "4x30M", combine to "8x30M", and a Zero's "2x30M", "1x20C", "1x20C" to
// "2x30M+2x20C".
func CombineMix(mixes ...string) (string, error) {
	if len(mixes) == 0 {
		return "", errors.New("no weapon mix to combine")
	}
	sum := make([]int, len(MixKinds))
	for _, m := range mixes {
		c, err := ParseMix(m)
		if err != nil {
			return "", err
		}
		for i := range sum {
			sum[i] += c[i]
		}
	}
	return FormatMix(sum), nil
}

// GunCount is the number of guns in a well-formed mix (0 for a malformed one).
func GunCount(mix string) int {
	c, err := ParseMix(mix)
	if err != nil {
		return 0
	}
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// FixedMix is the combined mix of all the card's fixed forward (FF) guns: what the plane fires when every
// fixed gun bears. It is "" for a card without fixed forward guns.
func (c *Card) FixedMix() string {
	var mixes []string
	for _, g := range c.Guns {
		if g.Kind == "FF" {
			mixes = append(mixes, g.Mix)
		}
	}
	if len(mixes) == 0 {
		return ""
	}
	m, err := CombineMix(mixes...)
	if err != nil {
		return ""
	}
	return m
}
