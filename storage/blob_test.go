package storage

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"sortie/mailer/outmail"
)

// pictured is a report whose one part, a picture, is kept in blob name.
func pictured(msgName, blob string) OutMail {
	m := mail(msgName, "g1")
	m.Kind = "report"
	m.Parts = []outmail.Part{{Filename: "map.png", ContentType: "image/png", Inline: true}}
	m.PartBlobs = []string{blob}
	return m
}

// A mail whose part waits for a blob is not pending until the blob is stored; the commit that stores it
// makes the mail pending, with the blob's bytes as its part; a second maker of the blob changes nothing
// (invariant 2: a mail never leaves without its parts, and each once).
func TestBlobHoldsItsMailsUntilMade(t *testing.T) {
	db := openTemp(t)
	picture := []byte("\x89PNG picture")
	mustUpdate(t, db, func(tx *Tx) error { return tx.PromiseBlob("map/1", []byte("scene")) })
	ids := enqueue(t, db, pictured("r1", "map/1"), pictured("r2", "map/1"), mail("plain", "g1"))
	if got := pendingIDs(t, db, t0, 0); len(got) != 1 || got[0] != ids[2] {
		t.Fatalf("pending before the blob is made: %v, want only the plain mail %s", got, ids[2])
	}
	st, err := db.OutboxStats()
	if err != nil || st.Held != 2 || st.Pending != 3 || st.Sent != 0 {
		t.Fatalf("stats with two held mails: %+v (%v)", st, err)
	}
	// Requeue leaves a held mail waiting.
	if _, err := db.Requeue(ids[0]); err != nil {
		t.Fatal(err)
	}
	if got := pendingIDs(t, db, t0, 0); len(got) != 1 {
		t.Fatalf("Requeue sent a mail whose blob is not made: pending %v", got)
	}
	var recipes []Recipe
	mustView(t, db, func(tx *Tx) error {
		var err error
		recipes, err = tx.Recipes()
		return err
	})
	if len(recipes) != 1 || recipes[0].Name != "map/1" || string(recipes[0].Data) != "scene" {
		t.Fatalf("recipes: %+v", recipes)
	}
	mustUpdate(t, db, func(tx *Tx) error {
		ok, err := tx.PutBlob("map/1", picture)
		if !ok {
			t.Error("PutBlob of a promised blob stored nothing")
		}
		return err
	})
	list, err := db.Pending(t0, 0)
	if err != nil || len(list) != 3 {
		t.Fatalf("pending once the blob is made: %d (%v), want 3", len(list), err)
	}
	for _, m := range list[:2] {
		if !bytes.Equal(m.Parts[0].Data, picture) {
			t.Errorf("mail %s goes without the blob's bytes: %q", m.ID, m.Parts[0].Data)
		}
	}
	mustUpdate(t, db, func(tx *Tx) error {
		ok, err := tx.PutBlob("map/1", []byte("another"))
		if ok {
			t.Error("a second PutBlob stored the blob again")
		}
		has, herr := tx.HasRecipes()
		if has || herr != nil {
			t.Errorf("a recipe is left once its blob is made (%v)", herr)
		}
		return err
	})
	// A mail that carries a blob already made is pending at once.
	late := enqueue(t, db, pictured("r3", "map/1"))
	if got := pendingIDs(t, db, t0, 0); len(got) != 4 || got[3] != late[0] {
		t.Fatalf("pending after a mail with a made blob: %v", got)
	}
	if err := db.MarkSentMany(ids, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	mustView(t, db, func(tx *Tx) error {
		v, err := tx.Blob("map/1")
		if !bytes.Equal(v, picture) {
			t.Errorf("the blob after its mails are sent: %q", v)
		}
		return err
	})
}

// A part may name only a blob that is stored or promised, and not carry bytes of its own besides.
func TestBlobPartsAreChecked(t *testing.T) {
	db := openTemp(t)
	err := db.Update(func(tx *Tx) error {
		_, err := tx.Enqueue(pictured("r1", "map/none"))
		return err
	})
	if !errors.Is(err, ErrInvalidMail) {
		t.Errorf("a mail naming a blob never promised: %v", err)
	}
	both := pictured("r2", "map/1")
	both.Parts[0].Data = []byte("own")
	err = db.Update(func(tx *Tx) error {
		if err := tx.PromiseBlob("map/1", []byte("scene")); err != nil {
			return err
		}
		_, err := tx.Enqueue(both)
		return err
	})
	if !errors.Is(err, ErrInvalidMail) {
		t.Errorf("a part with its own bytes and a blob: %v", err)
	}
	err = db.Update(func(tx *Tx) error {
		_, err := tx.PutBlob("map/never", []byte("x"))
		return err
	})
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("PutBlob of a blob never promised: %v", err)
	}
}
