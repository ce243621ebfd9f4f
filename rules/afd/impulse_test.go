package afd

import "testing"

// Seed 001 (Delta-T impulse table) as docs/rulings.md restores it: every row has exactly s marks, and rows 7,
// 8, 9 and 11 include impulse 7.
func TestImpulseChartRowsHaveSpeedMarks(t *testing.T) {
	for s := 1; s <= 24; s++ {
		imp := Impulses(s)
		if len(imp) != s {
			t.Errorf("speed %d: %d impulses", s, len(imp))
		}
		for i := 1; i < len(imp); i++ {
			if imp[i] < imp[i-1] || imp[i] < 1 || imp[i] > 12 {
				t.Errorf("speed %d: impulses out of order %v", s, imp)
			}
		}
	}
	for _, s := range []int{7, 8, 9, 11} {
		has7 := false
		for _, i := range Impulses(s) {
			has7 = has7 || i == 7
		}
		if !has7 {
			t.Errorf("speed %d must include the restored impulse 7: %v", s, Impulses(s))
		}
	}
	if got := Impulses(11); len(got) != 11 || got[7] != 9 {
		t.Errorf("speed 11 is every impulse but 8: %v", got)
	}
}

func TestSubStepsFollowTheChart(t *testing.T) {
	r := fly(t, fighter(), at(30), "3")
	subs := SubSteps(Step{Hex: r.Start.Hex}, r.Steps)
	// Speed 3 moves in impulses 3, 8 and 12.
	if subs[1].MP != 0 || subs[2].MP != 1 || subs[6].MP != 1 || subs[7].MP != 2 || subs[11].MP != 3 {
		t.Errorf("sub-steps: %+v", subs)
	}
}
