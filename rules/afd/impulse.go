package afd

// impulseRows is the Delta-T impulse chart (seed 001), with the marks its conversion lost restored as
// docs/rulings.md rules: a plane of speed s is active in these impulses of the turn's twelve. Rows 7, 8, 9 and
// 11 each regain impulse 7.
var impulseRows = [13][]int{
	0:  {},
	1:  {8},
	2:  {5, 10},
	3:  {3, 8, 12},
	4:  {3, 6, 9, 12},
	5:  {3, 5, 8, 10, 12},
	6:  {3, 5, 6, 9, 10, 12},
	7:  {1, 3, 5, 7, 8, 10, 12},
	8:  {1, 3, 4, 6, 7, 9, 10, 12},
	9:  {1, 2, 4, 5, 7, 8, 9, 11, 12},
	10: {1, 2, 4, 5, 6, 7, 8, 9, 11, 12},
	11: {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12},
	12: {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
}

// Impulses is the number of the turn's twelve sub-steps (1..12) in which each of a plane's s movement
// points is flown: out[i] is the sub-step of point i+1. Above 12 a plane moves in every impulse and
// twice in the impulses of the speed-(s-12) row (docs/rulings.md: Delta-T).
func Impulses(s int) []int {
	if s <= 0 {
		return nil
	}
	if s <= 12 {
		return impulseRows[s]
	}
	extra := map[int]bool{}
	for _, i := range Impulses(s - 12) {
		extra[i] = true
	}
	out := make([]int, 0, s)
	for i := 1; i <= 12; i++ {
		out = append(out, i)
		if extra[i] {
			out = append(out, i)
		}
	}
	return out
}

// SubSteps returns where a plane is at the end of each of the turn's twelve sub-steps (index 0 = after
// sub-step 1), given its start and the steps of its plot: the lock-step record of simultaneous movement
// that later rules (collisions, impulse fire) use.
func SubSteps(start Step, steps []Step) [12]Step {
	var out [12]Step
	imp := Impulses(len(steps))
	cur := start
	k := 0
	for sub := 1; sub <= 12; sub++ {
		for k < len(imp) && imp[k] <= sub {
			cur = steps[k]
			k++
		}
		out[sub-1] = cur
	}
	return out
}
