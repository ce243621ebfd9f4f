package storage

import (
	"errors"
	"fmt"
)

// Blobs: the bytes of a part that several mails share (a report's map picture, carried by the report and
// by every RESEND of it), kept once in the outbox and made after the commit that queued the first mail
// that carries it. See the layout at the top of outbox.go.

// Recipe is a blob not made yet: its name and what it is to be made from, as the caller stored it.
type Recipe struct {
	Name string
	Data []byte
}

// checkBlobName refuses a name bbolt could not store as a key.
func checkBlobName(name string) error {
	if name == "" || len(name) > MaxKeyLen {
		return fmt.Errorf("blob name %q: empty or longer than %d bytes", name, MaxKeyLen)
	}
	return nil
}

// PromiseBlob records, in this transaction, that blob name will be made from recipe: mails queued with a
// part in it (OutMail.PartBlobs) wait until PutBlob stores it. Promising a blob already stored or promised
// changes nothing.
func (tx *Tx) PromiseBlob(name string, recipe []byte) error {
	if err := checkBlobName(name); err != nil {
		return fmt.Errorf("storage: promise blob: %w", err)
	}
	ob, err := tx.outbox()
	if err != nil {
		return err
	}
	if ob.blob.Get([]byte(name)) != nil || ob.recipe.Get([]byte(name)) != nil {
		return nil
	}
	if err := ob.recipe.Put([]byte(name), append([]byte{}, recipe...)); err != nil {
		return fmt.Errorf("storage: promise blob %q: %w", name, err)
	}
	return nil
}

// Recipes lists every blob promised and not made yet, in name order: what is still to be made, after a
// commit or after a crash.
func (tx *Tx) Recipes() ([]Recipe, error) {
	ob, err := tx.outbox()
	if err != nil {
		return nil, err
	}
	if ob.recipe == nil {
		return nil, nil
	}
	var list []Recipe
	err = ob.recipe.ForEach(func(k, v []byte) error {
		list = append(list, Recipe{Name: string(k), Data: append([]byte{}, v...)})
		return nil
	})
	return list, err
}

// HasRecipes says whether any promised blob is still to be made, without reading the recipes.
func (tx *Tx) HasRecipes() (bool, error) {
	ob, err := tx.outbox()
	if err != nil {
		return false, err
	}
	if ob.recipe == nil {
		return false, nil
	}
	k, _ := ob.recipe.Cursor().First()
	return k != nil, nil
}

// PutBlob stores the bytes of a promised blob, forgets its recipe and makes every mail that waited for it
// pending (those that wait for no other blob), in this transaction. It reports false, and changes nothing,
// when the blob is already stored: a second maker of the same blob (after a crash, say) adds nothing.
func (tx *Tx) PutBlob(name string, data []byte) (bool, error) {
	if err := checkBlobName(name); err != nil {
		return false, fmt.Errorf("storage: put blob: %w", err)
	}
	if len(data) == 0 {
		return false, fmt.Errorf("storage: put blob %q: %w", name, errors.New("no bytes"))
	}
	ob, err := tx.outbox()
	if err != nil {
		return false, err
	}
	key := []byte(name)
	if ob.blob.Get(key) != nil {
		return false, nil
	}
	if ob.recipe.Get(key) == nil {
		return false, fmt.Errorf("storage: put blob %q: %w: never promised", name, ErrNotFound)
	}
	if err := ob.blob.Put(key, append([]byte{}, data...)); err != nil {
		return false, fmt.Errorf("storage: put blob %q: %w", name, err)
	}
	if err := ob.recipe.Delete(key); err != nil {
		return false, err
	}
	w := ob.held.Bucket(key)
	if w == nil {
		return true, nil
	}
	var ids [][]byte
	if err := w.ForEach(func(k, _ []byte) error {
		ids = append(ids, append([]byte{}, k...))
		return nil
	}); err != nil {
		return false, err
	}
	if err := ob.held.DeleteBucket(key); err != nil {
		return false, err
	}
	for _, id := range ids {
		rec, ok, err := getOutgoing(ob, string(id))
		if err != nil {
			return false, err
		}
		if !ok || rec.Status != OutPending || heldOn(ob, rec) {
			continue
		}
		if err := ob.pending.Put(id, nanos(rec.NextAttempt)); err != nil {
			return false, err
		}
		if !tx.outboxSignal {
			tx.outboxSignal = true
			tx.OnCommit(tx.db.signalOutbox)
		}
	}
	return true, nil
}

// Blob returns a copy of a stored blob's bytes, or nil when it is not stored (yet).
func (tx *Tx) Blob(name string) ([]byte, error) {
	ob, err := tx.outbox()
	if err != nil {
		return nil, err
	}
	if ob.blob == nil || checkBlobName(name) != nil {
		return nil, nil
	}
	v := ob.blob.Get([]byte(name))
	if v == nil {
		return nil, nil
	}
	return append([]byte{}, v...), nil
}

// BlobRecipe returns a copy of a promised blob's recipe, or nil when none is waiting (the blob is made, or
// was never promised).
func (tx *Tx) BlobRecipe(name string) ([]byte, error) {
	ob, err := tx.outbox()
	if err != nil {
		return nil, err
	}
	if ob.recipe == nil || checkBlobName(name) != nil {
		return nil, nil
	}
	v := ob.recipe.Get([]byte(name))
	if v == nil {
		return nil, nil
	}
	return append([]byte{}, v...), nil
}

// heldOn says whether a mail still waits for a blob of one of its parts.
func heldOn(ob outboxBuckets, rec Outgoing) bool {
	for i := range rec.Parts {
		if name := rec.partBlob(i); name != "" && (ob.blob == nil || ob.blob.Get([]byte(name)) == nil) {
			return true
		}
	}
	return false
}
