package tables

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Weapon kinds, in the order a mix is printed: machine guns before cannon, smaller before larger
// .
var mixKinds = []string{"30M", "50M", "20C", "30C", "37C"}

// kindFirepower is the house weight of one weapon of each kind, indexed like mixKinds: a rifle-calibre machine gun 1, a heavy machine gun 2, a 20 mm cannon 4, a 30 mm cannon 6 and
// the slow-firing 37 mm cannon 5. It drives the house gunnery charts and ChartFor.
var kindFirepower = []int{1, 2, 4, 6, 5}

// KindFirepower is the house firepower of one weapon of the kind ("30M", "50M", "20C", "30C" or
// "37C"), or 0 for an unknown kind.
func KindFirepower(kind string) int {
	for i, k := range mixKinds {
		if k == kind {
			return kindFirepower[i]
		}
	}
	return 0
}

// mixKeys are the 20 gunnery charts of seed 000 ("Main combat rule changes": "the 20 firing charts"),
// in the order of ; these keys name the
// charts in every tables file.
var mixKeys = []string{
	"1x30M", "2x30M", "2x50M", "4x30M", "3x50M",
	"8x30M", "4x50M", "2x30M+1x20C", "6x50M", "2x30M+2x20C",
	"2x50M+1x20C", "8x50M", "4x30M+2x20C", "2x50M+2x20C", "4x50M+1x20C",
	"4x20C", "2x30M+4x20C", "2x50M+1x30C", "4x50M+1x37C", "4x30C",
}

// MixKeys returns the keys of the 20 gunnery charts in their printed order.
func MixKeys() []string { return append([]string(nil), mixKeys...) }

// isMixKey reports whether key names one of the 20 charts.
func isMixKey(key string) bool { return chartIndex(key) >= 0 }

func chartIndex(key string) int {
	for i, k := range mixKeys {
		if k == key {
			return i
		}
	}
	return -1
}

// maxGuns bounds the guns of one kind in a mix, far above any aircraft's.
const maxGuns = 99

// parseMix reads a weapon mix into counts per kind (indexed like mixKinds). It is more forgiving than
// the aircraft cards' parser, because ChartFor also serves hand-typed mixes in the calculator: terms may
// come in any order, a kind may repeat (the counts add up), the x may be capital and the kind may be in
// lower case. Each count must be a positive whole number, and no kind may add up to more than maxGuns.
func parseMix(mix string) ([]int, error) {
	counts := make([]int, len(mixKinds))
	if strings.TrimSpace(mix) == "" {
		return nil, errors.New("empty weapon mix")
	}
	for _, term := range strings.Split(mix, "+") {
		term = strings.TrimSpace(term)
		i := strings.IndexAny(term, "xX")
		if i < 0 {
			return nil, fmt.Errorf("weapon mix %q: term %q is not NxKIND (e.g. 2x30M)", mix, term)
		}
		n, err := strconv.Atoi(term[:i])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("weapon mix %q: term %q needs a positive count", mix, term)
		}
		kind := strings.ToUpper(term[i+1:])
		k := -1
		for j, m := range mixKinds {
			if m == kind {
				k = j
			}
		}
		if k < 0 {
			return nil, fmt.Errorf("weapon mix %q: unknown weapon kind %q (want one of %s)", mix, term[i+1:], strings.Join(mixKinds, ", "))
		}
		counts[k] += n
		if counts[k] > maxGuns {
			return nil, fmt.Errorf("weapon mix %q: more than %d guns of one kind", mix, maxGuns)
		}
	}
	return counts, nil
}

// formatMix prints counts per kind in print order.
func formatMix(counts []int) string {
	var terms []string
	for i, n := range counts {
		if n > 0 {
			terms = append(terms, fmt.Sprintf("%dx%s", n, mixKinds[i]))
		}
	}
	return strings.Join(terms, "+")
}

func firepowerOf(counts []int) int {
	fp := 0
	for i, n := range counts {
		fp += n * kindFirepower[i]
	}
	return fp
}

// Firepower is the house firepower of a weapon mix: the sum of KindFirepower over its guns. So 8x30M
// is 8, 2x30M+2x20C is 10 and 4x30C is 24.
func Firepower(mix string) (int, error) {
	c, err := parseMix(mix)
	if err != nil {
		return 0, err
	}
	return firepowerOf(c), nil
}

// ChartFor names the gunnery chart a weapon mix fires on. A mix that is one of the 20 charts (after
// putting its terms in print order and adding repeated kinds) is exact. Any other mix fires on the
// chart whose house firepower is nearest to its own; a tie goes to the chart of lower firepower; among
// charts of equal firepower, to the one whose guns differ least from the mix (the firepower of the guns
// that would have to be added or taken away), and then to the one earlier in MixKeys. So 6x30M (6)
// fires on 2x30M+1x20C rather than 3x50M, 2x20C (8) on 2x50M+1x20C, 3x30M (3, between 2 and 4) on 2x30M
// and 4x50M+2x20C (16) on 8x50M.
//
// A malformed mix gives ("", false). The 20 keys are fixed, so the answer does not depend on which
// charts a game has loaded.
func ChartFor(mix string) (key string, exact bool) {
	counts, err := parseMix(mix)
	if err != nil {
		return "", false
	}
	canon := formatMix(counts)
	if isMixKey(canon) {
		return canon, true
	}
	fp := firepowerOf(counts)
	best, bestD, bestFP, bestDiff := "", 0, 0, 0
	for _, k := range mixKeys {
		kc, _ := parseMix(k)
		kfp := firepowerOf(kc)
		d := abs(kfp - fp)
		diff := 0
		for i := range kc {
			diff += abs(kc[i]-counts[i]) * kindFirepower[i]
		}
		better := best == "" || d < bestD ||
			d == bestD && kfp < bestFP ||
			d == bestD && kfp == bestFP && diff < bestDiff
		if better {
			best, bestD, bestFP, bestDiff = k, d, kfp, diff
		}
	}
	return best, false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
