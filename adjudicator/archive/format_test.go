package archive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func editJSON(t *testing.T, dir, name string, edit func(v any) any) {
	t.Helper()
	var v any
	if err := json.Unmarshal(mustRead(t, dir, name), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(edit(v), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
}

// An archive of format 1 (written before mail.json, its mbox plain 8-bit text with X-Sortie-Delivery)
// still verifies; a format this build does not know is refused.
func TestArchiveVerifyReadsFormat1(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(2)
	_, dir := a.export()
	msgs, err := readMbox(mustRead(t, dir, fileMbox))
	if err != nil {
		t.Fatal(err)
	}
	// The mbox as format 1 wrote it.
	var old bytes.Buffer
	for _, raw := range msgs {
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		_, text, err := mailText(raw)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&old, "From sortie@sortie.test Mon Nov 23 10:00:00 2026\n")
		for _, h := range []string{"Date", "From", "To", "Subject", "Message-ID"} {
			fmt.Fprintf(&old, "%s: %s\n", h, m.Header.Get(h))
		}
		old.WriteString("X-Sortie-Delivery: pending\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n")
		for _, line := range strings.SplitAfter(text, "\n") {
			if fromLine.MatchString(line) {
				old.WriteByte('>')
			}
			old.WriteString(line)
		}
		old.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(dir, fileMbox), old.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	editJSON(t, dir, fileManifest, func(v any) any { v.(map[string]any)["format_version"] = 1; return v })
	if err := os.Remove(filepath.Join(dir, fileMails)); err != nil {
		t.Fatal(err)
	}
	var sums strings.Builder
	for _, line := range strings.SplitAfter(string(mustRead(t, dir, fileSums)), "\n") {
		if !strings.HasSuffix(line, "  "+fileMails+"\n") {
			sums.WriteString(line)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, fileSums), []byte(sums.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	rewriteSums(t, dir)
	rep := mustVerify(t, dir)
	if len(rep.Rounds) != 2 {
		t.Errorf("report: %+v", rep)
	}

	editJSON(t, dir, fileManifest, func(v any) any { v.(map[string]any)["format_version"] = FormatVersion + 1; return v })
	rewriteSums(t, dir)
	mustFail(t, dir, fmt.Sprintf("archive format version %d; this sortie reads versions 1 to %d", FormatVersion+1, FormatVersion))
}

// mail.json must agree with the manifest and the mbox.
func TestArchiveVerifyMailIndex(t *testing.T) {
	a := newArchiveGame(t, 0)
	a.play(1)
	_, dir := a.export()
	editJSON(t, dir, fileMails, func(v any) any {
		l := v.([]any)
		l[0].(map[string]any)["message_id"], l[1].(map[string]any)["message_id"] = l[1].(map[string]any)["message_id"], l[0].(map[string]any)["message_id"]
		return l
	})
	rewriteSums(t, dir)
	mustFail(t, dir, "mail.json: mail 1 is", "but mail 1 of mail.mbox is")

	editJSON(t, dir, fileMails, func(v any) any { return v.([]any)[1:] })
	rewriteSums(t, dir)
	mustFail(t, dir, "mail.json lists", "the manifest says")
}
