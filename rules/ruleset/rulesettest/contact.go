package rulesettest

import (
	"encoding/json"
	"reflect"
	"testing"

	"sortie/rules/ruleset"
)

// ReportText is a report and its picture's scene as one string, for telling two reports apart.
func ReportText(t testing.TB, r ruleset.Report) string {
	t.Helper()
	b, err := json.Marshal(struct {
		R  ruleset.Report
		Sc any
	}{r, r.Picture()})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ContactTold checks that a side is told every field of its contact type C, so that a view is a
// function of the report: change holds, by field name, a change of that field made to a copy of base
// (clone), and told says whether a state's report differs from base's. A field with no change here, or
// whose change the report does not show, fails t. held, when not nil, says whether a changed state's
// view differs at all (a field the side does not see in this game is passed over); prefix starts each
// failure.
func ContactTold[C, S any](t *testing.T, prefix string, base *S, clone func(*S) *S, change map[string]func(*S), told, held func(*S) bool) {
	t.Helper()
	ct := reflect.TypeFor[C]()
	for i := range ct.NumField() {
		name := ct.Field(i).Name
		fn, ok := change[name]
		if !ok {
			t.Errorf("%sContact.%s: no line of this test shows that the report tells it", prefix, name)
			continue
		}
		st := clone(base)
		fn(st)
		if held != nil && !held(st) {
			continue
		}
		if !told(st) {
			t.Errorf("%sContact.%s changed and the report did not: the View holds what the side is not told", prefix, name)
		}
	}
}
