package senderauth

import (
	"reflect"
	"strings"
	"testing"
)

// mail builds a raw mail from header lines (joined with CRLF) and a short body.
func mail(lines ...string) []byte {
	return []byte(strings.Join(lines, "\r\n") + "\r\n\r\nGAME g1 TURN 1\r\n")
}

// Header fields as real servers write them: several fields, folded, with comments (some holding a
// semicolon or an equals sign), versions, quoted strings, one result per field or many.
var (
	gmailPass = "Authentication-Results: mx.google.com;\r\n" +
		"       dkim=pass header.i=@example.net header.s=20230601 header.b=Ab/Cd+e=;\r\n" +
		"       spf=pass (google.com: domain of anna@example.net designates 192.0.2.7 as permitted sender) smtp.mailfrom=anna@example.net;\r\n" +
		"       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.net"
	outlookFail = "Authentication-Results: spf=fail (sender IP is 198.51.100.9)\r\n" +
		" smtp.mailfrom=evil.test; dkim=none (message not signed)\r\n" +
		" header.d=none;dmarc=fail action=none header.from=example.net;compauth=fail\r\n" +
		" reason=000"
	rspamdFail = "Authentication-Results: mail.sortie.test;\r\n" +
		"\tdkim=none;\r\n" +
		"\tdmarc=fail reason=\"SPF not aligned (relaxed), No valid DKIM\" header.from=example.net (policy=reject);\r\n" +
		"\tspf=pass (mail.sortie.test: domain of x@evil.test designates 198.51.100.9 as permitted sender) smtp.mailfrom=x@evil.test"
	openDMARCPass = "Authentication-Results: mail.sortie.test; dmarc=pass (p=none dis=none) header.from=example.net"
	openDKIMPass  = "Authentication-Results: mail.sortie.test;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=example.net header.i=@example.net header.b=\"XyZ12345\""
)

func TestParseRealFields(t *testing.T) {
	// RFC 8601 sections 2.2-2.7: authserv-id, optional version, resinfo with method, result, reason and
	// properties; CFWS (comments) anywhere.
	cases := []struct {
		name, field string
		id          string
		want        []Result
	}{
		{"gmail", gmailPass, "mx.google.com", []Result{
			{"dkim", "pass", map[string]string{"header.i": "@example.net", "header.s": "20230601", "header.b": "Ab"}},
			{"spf", "pass", map[string]string{"smtp.mailfrom": "anna@example.net"}},
			{"dmarc", "pass", map[string]string{"header.from": "example.net"}},
		}},
		// Exchange Online writes no authserv-id at all: its first word is a result, which is no id that
		// a configuration can name.
		{"rspamd", rspamdFail, "mail.sortie.test", []Result{
			{"dkim", "none", nil},
			{"dmarc", "fail", map[string]string{"reason": "SPF not aligned (relaxed), No valid DKIM", "header.from": "example.net"}},
			{"spf", "pass", map[string]string{"smtp.mailfrom": "x@evil.test"}},
		}},
		{"version and spaced dot", "Authentication-Results: mx.sortie.test 1; dkim/1 = pass header . d = example.net", "mx.sortie.test", []Result{
			{"dkim", "pass", map[string]string{"header.d": "example.net"}},
		}},
		{"no result", "Authentication-Results: mx.sortie.test (comment; with a semicolon); none", "mx.sortie.test", nil},
		{"quoted id", `Authentication-Results: "mx.sortie.test"; spf=fail smtp.mailfrom="a;b@example.net"`, "mx.sortie.test", []Result{
			{"spf", "fail", map[string]string{"smtp.mailfrom": "a;b@example.net"}},
		}},
		{"nested comments", "Authentication-Results: mx.sortie.test; dmarc=fail (a (nested; one) \\) here) header.from=example.net", "mx.sortie.test", []Result{
			{"dmarc", "fail", map[string]string{"header.from": "example.net"}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := mail(c.field, "From: anna@example.net")
			var got []Result
			var id string
			for v := range fields(raw, "authentication-results") {
				id, got = Parse(v)
				break
			}
			if id != c.id {
				t.Errorf("authserv-id %q, want %q", id, c.id)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("results\n got %#v\nwant %#v", got, c.want)
			}
		})
	}
	if id, _ := Parse(strings.TrimPrefix(outlookFail, "Authentication-Results:")); strings.EqualFold(id, "mail.sortie.test") {
		t.Errorf("Exchange's field read with the id %q", id)
	}
}

func TestVerdicts(t *testing.T) {
	const ours = "mail.sortie.test"
	from := "anna@example.net"
	cases := []struct {
		name   string
		header []string
		want   Verdict
	}{
		{"pass", []string{openDMARCPass, openDKIMPass}, Verdict{Outcome: Pass}},
		{"dmarc fail", []string{rspamdFail}, Verdict{Outcome: Fail, Why: WhyDMARC}},
		{"missing", []string{"Received: from x by y"}, Verdict{}},
		// Another server's verdicts count for nothing, pass or fail, above or below ours.
		{"foreign fail only", []string{strings.Replace(rspamdFail, ours, "mx.elsewhere.test", 1)}, Verdict{}},
		{"foreign pass above our fail", []string{gmailPass, rspamdFail}, Verdict{Outcome: Fail, Why: WhyDMARC}},
		{"foreign fail above our pass", []string{strings.Replace(rspamdFail, ours, "mx.elsewhere.test", 1), openDMARCPass}, Verdict{Outcome: Pass}},
		// A field with our id below ours was in the mail when it came: the sender may have written it.
		{"forged pass below our fail", []string{rspamdFail, "Received: from evil.test", openDMARCPass}, Verdict{Outcome: Fail, Why: WhyDMARC}},
		{"id in another case", []string{strings.Replace(rspamdFail, ours, "MAIL.Sortie.Test", 1)}, Verdict{Outcome: Fail, Why: WhyDMARC}},
		// Without DMARC: DKIM or SPF for the From's own domain.
		{"aligned dkim", []string{"Authentication-Results: mail.sortie.test; dkim=pass header.d=example.net; spf=fail smtp.mailfrom=x@example.net"}, Verdict{Outcome: Pass}},
		{"aligned spf, parent domain", []string{"Authentication-Results: mail.sortie.test; dkim=none; spf=pass smtp.mailfrom=b@bounce.example.net"}, Verdict{Outcome: Pass}},
		{"another domain's pass", []string{"Authentication-Results: mail.sortie.test; dkim=pass header.d=evil.test; spf=pass smtp.mailfrom=x@evil.test"}, Verdict{Outcome: Fail, Why: WhyNoProof}},
		{"a top-level domain vouches for nothing", []string{"Authentication-Results: mail.sortie.test; dkim=pass header.d=net"}, Verdict{Outcome: Fail, Why: WhyNoProof}},
		{"dmarc none, spf softfail", []string{"Authentication-Results: mail.sortie.test; dmarc=none header.from=example.net; spf=softfail smtp.mailfrom=anna@example.net"}, Verdict{Outcome: Fail, Why: WhyNoProof}},
		{"dmarc about another From", []string{"Authentication-Results: mail.sortie.test; dmarc=pass header.from=evil.test"}, Verdict{}},
		{"nothing about the sender", []string{"Authentication-Results: mail.sortie.test; iprev=pass policy.iprev=192.0.2.7; arc=none"}, Verdict{}},
		{"no result", []string{"Authentication-Results: mail.sortie.test; none"}, Verdict{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := mail(append(c.header, "From: Anna <"+from+">", "Subject: orders")...)
			if got := Check(raw, ours, from); got != c.want {
				t.Errorf("Check = %+v, want %+v", got, c.want)
			}
		})
	}
	if got := Check(mail(rspamdFail), "", from); got != (Verdict{}) {
		t.Errorf("without an authserv_id: %+v, want none", got)
	}
}

func TestHeaderEndsAtBlankLine(t *testing.T) {
	// A field in the body is no field; an mbox From_ line and LF line ends are read as well.
	raw := []byte("From anna@example.net Sat Nov 28 07:00:00 2026\nFrom: anna@example.net\n\n" + openDMARCPass + "\n")
	if got := Check(raw, "mail.sortie.test", "anna@example.net"); got != (Verdict{}) {
		t.Errorf("a field in the body counted: %+v", got)
	}
	raw = []byte("From anna@example.net Sat Nov 28 07:00:00 2026\n" + strings.ReplaceAll(rspamdFail, "\r\n", "\n") + "\nFrom: anna@example.net\n\nhi\n")
	if got := Check(raw, "mail.sortie.test", "anna@example.net"); got.Outcome != Fail {
		t.Errorf("LF mail with a From_ line: %+v, want fail", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{gmailPass, outlookFail, rspamdFail, openDMARCPass, openDKIMPass,
		"Authentication-Results: a; b=(c\"", "Authentication-Results: \"a\\", "Authentication-Results: a; x/=y z . = \"q"} {
		f.Add([]byte(s + "\r\nFrom: a@b.c\r\n\r\nbody"))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for v := range fields(raw, "authentication-results") {
			_, results := Parse(v)
			if len(results) > maxResults {
				t.Fatalf("%d results", len(results))
			}
			for _, r := range results {
				if r.Method == "" || strings.ToLower(r.Method) != r.Method || strings.ToLower(r.Result) != r.Result {
					t.Fatalf("result %+v", r)
				}
			}
		}
		v := Check(raw, "a", "x@b.c")
		if (v.Outcome == Fail) != (v.Why != "") {
			t.Fatalf("verdict %+v", v)
		}
	})
}
