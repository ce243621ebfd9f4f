package tables

import (
	"strings"
	"testing"
)

// A file that is no tables file at all (a system file named by mistake or on purpose): the problems
// name the file and lines, never its text.
func TestProblemsDoNotEchoTheFile(t *testing.T) {
	for _, data := range []string{
		"root:$6$SECRETHASHxyz:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
		"SECRETHASHxyz\n",
		"gunnery: SECRETHASHxyz\n",
		"- SECRETHASHxyz\n",
	} {
		_, err := Parse(map[string][]byte{"/etc/shadow": []byte(data)})
		if err == nil {
			t.Fatalf("%q parsed", data)
		}
		if strings.Contains(err.Error(), "SECRETHASH") || !strings.Contains(err.Error(), "/etc/shadow") {
			t.Errorf("%q: %v", data, err)
		}
	}
	// A misspelt section is still named.
	_, err := Parse(map[string][]byte{"t.yaml": []byte("gunery: {}\n")})
	if err == nil || !strings.Contains(err.Error(), `"gunery"`) {
		t.Errorf("a misspelt section: %v", err)
	}
}
