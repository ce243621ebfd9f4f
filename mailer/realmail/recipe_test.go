package realmail

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// fenced returns the fenced blocks of a Markdown text with the given info string.
func fenced(doc, info string) []string {
	var out []string
	for _, part := range strings.Split(doc, "\n```"+info+"\n")[1:] {
		body, _, _ := strings.Cut(part, "\n```")
		out = append(out, body)
	}
	return out
}

var settingRE = regexp.MustCompile(`^\s*([a-z_]+)\s*=\s*(.*?)\s*$`)

// settings reads "key = value" lines (at any depth of braces) into a map, and the block openers
// ("service lmtp {") into a set.
func settings(conf string) (map[string]string, map[string]bool) {
	kv, blocks := map[string]string{}, map[string]bool{}
	for _, l := range strings.Split(conf, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasSuffix(t, "{") {
			blocks[strings.TrimSpace(strings.TrimSuffix(t, "{"))] = true
			continue
		}
		if m := settingRE.FindStringSubmatch(l); m != nil {
			if _, seen := kv[m[1]]; !seen {
				kv[m[1]] = m[2]
			}
		}
	}
	return kv, blocks
}

// TestOperationsRecipeIsWhatTheTestsRun: the Dovecot and Postfix lines of docs/operations.md ("Recipe:
// your own Dovecot and Postfix on one host") are the settings the end-to-end tests run: every key the
// recipe sets is in the tested configuration, the settings Sortie depends on have the same values
// (plus-addressing, LMTP delivery, SASL through Dovecot, TLS required), and the submission service is
// the tested one.
func TestOperationsRecipeIsWhatTheTestsRun(t *testing.T) {
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	exact := map[string]bool{"protocols": true, "ssl": true, "disable_plaintext_auth": true, "auth_mechanisms": true,
		"recipient_delimiter": true, "smtpd_sasl_type": true, "smtpd_relay_restrictions": true, "smtputf8_enable": true, "driver": true}
	prefix := map[string]string{"virtual_transport": "lmtp:inet:", "smtpd_sasl_path": "inet:", "virtual_mailbox_maps": "texthash:", "mail_location": "maildir:"}
	for _, c := range []struct{ info, tested string }{{"dovecot", dovecotConf}, {"postfix", postfixMainCf}} {
		blocks := fenced(doc, c.info)
		if len(blocks) != 1 {
			t.Fatalf("docs/operations.md has %d %s blocks, want 1", len(blocks), c.info)
		}
		recipe, recipeBlocks := settings(blocks[0])
		tested, testedBlocks := settings(c.tested)
		for k, v := range recipe {
			tv, ok := tested[k]
			switch {
			case !ok:
				t.Errorf("%s: the recipe sets %s, which the tests do not run", c.info, k)
			case exact[k] && v != tv:
				t.Errorf("%s: the recipe has %s = %s, the tests %s", c.info, k, v, tv)
			case prefix[k] != "" && (!strings.HasPrefix(v, prefix[k]) || !strings.HasPrefix(tv, prefix[k])):
				t.Errorf("%s: %s must be %s… in both: recipe %s, tests %s", c.info, k, prefix[k], v, tv)
			}
		}
		for blk := range recipeBlocks {
			if !testedBlocks[blk] {
				t.Errorf("%s: the recipe has a block %q the tests do not run", c.info, blk)
			}
		}
		for _, k := range []string{"recipient_delimiter"} {
			if recipe[k] != "+" {
				t.Errorf("%s: the recipe must set %s = +", c.info, k)
			}
		}
	}
	master := fenced(doc, "postfix-master")
	if len(master) != 1 {
		t.Fatalf("docs/operations.md has %d postfix-master blocks, want 1", len(master))
	}
	for i, l := range strings.Split(strings.TrimSpace(master[0]), "\n") {
		want := l
		if i == 0 {
			want = strings.Replace(l, "submission", "{{submission}}", 1)
		}
		if !strings.Contains(postfixMasterCf, want+"\n") {
			t.Errorf("master.cf: the recipe's line %q is not in the tested configuration", l)
		}
	}
}
