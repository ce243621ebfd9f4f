package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// appendFillPercent is the fill factor for buckets whose keys only ever grow (SeqKey keys): bbolt's default
// of 0.5 leaves every split page half empty, which for append-only keys is space never used again
// (measured: 0.9 makes such a file about a third smaller).
const appendFillPercent = 0.9

// Tx is one bbolt transaction. It is valid only inside the Update or View closure that received it; every
// byte slice it returns is a copy, so keeping one after the transaction is safe.
type Tx struct {
	tx *bolt.Tx
	db *DB

	// internal lets migrations write reserved buckets through the generic methods.
	internal bool
	// outboxSignal is set once this transaction has registered the OutboxReady commit hook.
	outboxSignal bool
}

// Writable reports whether this is an Update transaction.
func (tx *Tx) Writable() bool { return tx.tx.Writable() }

// OnCommit runs fn after the transaction has committed (and never if it rolls back), e.g. to wake a goroutine
// that waits for what this transaction wrote.
func (tx *Tx) OnCommit(fn func()) { tx.tx.OnCommit(fn) }

// Put stores value under key in the bucket at path, creating the buckets along the path as needed, e.g.
// Put([]string{"orders", game, SeqKey(round)}, player, plot). The value is copied into the transaction.
func (tx *Tx) Put(path []string, key string, value []byte) error {
	if err := tx.checkWrite(path, key); err != nil {
		return err
	}
	b, err := tx.bucket(path, true)
	if err != nil {
		return err
	}
	// bbolt keeps a reference to the value until commit; copy so the caller may reuse its buffer.
	v := make([]byte, len(value))
	copy(v, value)
	if err := b.Put([]byte(key), v); err != nil {
		return fmt.Errorf("storage: put %s %q: %w", pathString(path), key, err)
	}
	return nil
}

// Peek is Get without the copy: the stored bytes themselves, for a caller that only compares or decodes
// them at once. They must not be changed, and they are valid only until the transaction's next write
// and never after it ends (bbolt's own rule for the values it returns).
func (tx *Tx) Peek(path []string, key string) ([]byte, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	if err := checkKey(path, key); err != nil {
		return nil, err
	}
	b, err := tx.bucket(path, false)
	if err != nil || b == nil {
		return nil, err
	}
	return b.Get([]byte(key)), nil
}

// Get returns a copy of the value under key, or nil if there is none (a present but empty value is a non-nil
// empty slice). A missing bucket is the same as a missing key.
func (tx *Tx) Get(path []string, key string) ([]byte, error) {
	v, err := tx.Peek(path, key)
	if err != nil || v == nil {
		return nil, err
	}
	return append([]byte{}, v...), nil
}

// Delete removes key from the bucket at path. A missing key or bucket is not an error.
func (tx *Tx) Delete(path []string, key string) error {
	if err := tx.checkWrite(path, key); err != nil {
		return err
	}
	b, err := tx.bucket(path, false)
	if err != nil || b == nil {
		return err
	}
	if err := b.Delete([]byte(key)); err != nil {
		return fmt.Errorf("storage: delete %s %q: %w", pathString(path), key, err)
	}
	return nil
}

// DeleteBucket removes the bucket at path with everything in it (e.g. a round being rolled back).
// A missing bucket is not an error. Top-level buckets cannot be deleted.
func (tx *Tx) DeleteBucket(path []string) error {
	if len(path) < 2 {
		return fmt.Errorf("storage: delete bucket %s: %w: only nested buckets can be deleted", pathString(path), ErrBadPath)
	}
	if err := tx.checkWrite(path, keyless); err != nil {
		return err
	}
	parent, err := tx.bucket(path[:len(path)-1], false)
	if err != nil || parent == nil {
		return err
	}
	name := []byte(path[len(path)-1])
	if parent.Bucket(name) == nil {
		return nil
	}
	if err := parent.DeleteBucket(name); err != nil {
		return fmt.Errorf("storage: delete bucket %s: %w", pathString(path), err)
	}
	return nil
}

// ForEach calls fn for every key/value pair in the bucket at path, in byte order of the keys. Nested buckets
// are skipped (list them with Buckets). value is a copy. fn must not write to the same bucket; collect first,
// then write. An error from fn stops the walk and is returned.
func (tx *Tx) ForEach(path []string, fn func(key string, value []byte) error) error {
	if err := checkPath(path); err != nil {
		return err
	}
	b, err := tx.bucket(path, false)
	if err != nil || b == nil {
		return err
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil {
			continue // a nested bucket
		}
		if err := fn(string(k), append([]byte{}, v...)); err != nil {
			return err
		}
	}
	return nil
}

// Keys lists the keys of the values (not nested buckets) in the bucket at path, in byte order.
func (tx *Tx) Keys(path []string) ([]string, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	b, err := tx.bucket(path, false)
	if err != nil || b == nil {
		return nil, err
	}
	var keys []string
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v != nil {
			keys = append(keys, string(k))
		}
	}
	return keys, nil
}

// Buckets lists the names of the buckets nested in the bucket at path, in byte order; an empty path lists
// the top-level buckets. E.g. Buckets([]string{"orders"}) gives the games that have orders.
func (tx *Tx) Buckets(path []string) ([]string, error) {
	var names []string
	if len(path) == 0 {
		err := tx.tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			names = append(names, string(name))
			return nil
		})
		return names, err
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	b, err := tx.bucket(path, false)
	if err != nil || b == nil {
		return nil, err
	}
	err = b.ForEachBucket(func(k []byte) error {
		names = append(names, string(k))
		return nil
	})
	return names, err
}

// PutJSON stores v encoded as JSON.
func (tx *Tx) PutJSON(path []string, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("storage: put %s %q: %w", pathString(path), key, err)
	}
	return tx.Put(path, key, data)
}

// GetJSON decodes the JSON value under key into v and reports whether it was there; v is untouched when not.
func (tx *Tx) GetJSON(path []string, key string, v any) (bool, error) {
	data, err := tx.Get(path, key)
	if err != nil || data == nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("storage: get %s %q: %w", pathString(path), key, err)
	}
	return true, nil
}

// NextSeq returns the next number (1, 2, …) of the bucket at path, creating the bucket if needed, and marks
// the bucket append-only (FillPercent 0.9) for this transaction. Use SeqKey(n) as the record's key. The
// counter commits with the transaction: numbers drawn by a transaction that rolls back are drawn again by the
// next one, so they are unique among committed records.
func (tx *Tx) NextSeq(path []string) (uint64, error) {
	if err := tx.checkWrite(path, keyless); err != nil {
		return 0, err
	}
	b, err := tx.bucket(path, true)
	if err != nil {
		return 0, err
	}
	b.FillPercent = appendFillPercent
	n, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("storage: next sequence %s: %w", pathString(path), err)
	}
	return n, nil
}

// Append stores value under the key SeqKey(NextSeq(path)) and returns that key: a log that keeps its order,
// such as dice/<game>.
func (tx *Tx) Append(path []string, value []byte) (string, error) {
	n, err := tx.NextSeq(path)
	if err != nil {
		return "", err
	}
	key := SeqKey(n)
	return key, tx.Put(path, key, value)
}

// AppendJSON is Append with v encoded as JSON.
func (tx *Tx) AppendJSON(path []string, v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("storage: append %s: %w", pathString(path), err)
	}
	return tx.Append(path, data)
}

// seqKeyWidth fits the largest uint64 (18446744073709551615) in decimal.
const seqKeyWidth = 20

// SeqKey is the key for the n-th record of an ordered bucket: zero-padded decimal of fixed width, so byte
// order is numeric order ("00000000000000000009" < "00000000000000000010") and a human can still read it.
func SeqKey(n uint64) string {
	return fmt.Sprintf("%0*d", seqKeyWidth, n)
}

// ParseSeqKey is the inverse of SeqKey.
func ParseSeqKey(key string) (uint64, error) {
	if len(key) != seqKeyWidth {
		return 0, fmt.Errorf("storage: %q is not a sequence key", key)
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("storage: %q is not a sequence key", key)
	}
	return n, nil
}

// bucket walks path. With create it makes the missing buckets (read-write transactions only); without, it
// returns nil for a missing one.
func (tx *Tx) bucket(path []string, create bool) (*bolt.Bucket, error) {
	var b *bolt.Bucket
	for i, name := range path {
		var next *bolt.Bucket
		if b == nil {
			next = tx.tx.Bucket([]byte(name))
		} else {
			next = b.Bucket([]byte(name))
		}
		if next == nil {
			if !create {
				return nil, nil
			}
			var err error
			if b == nil {
				next, err = tx.tx.CreateBucketIfNotExists([]byte(name))
			} else {
				next, err = b.CreateBucketIfNotExists([]byte(name))
			}
			if err != nil {
				return nil, fmt.Errorf("storage: create bucket %s: %w", pathString(path[:i+1]), err)
			}
		}
		b = next
	}
	return b, nil
}

func (tx *Tx) checkWrite(path []string, key string) error {
	if err := checkPath(path); err != nil {
		return err
	}
	if err := checkKey(path, key); err != nil {
		return err
	}
	if !tx.internal && reserved[path[0]] {
		return fmt.Errorf("storage: write %s: %w: use its own methods", pathString(path), ErrReserved)
	}
	return nil
}

func checkPath(path []string) error {
	if len(path) == 0 {
		return fmt.Errorf("storage: %w: empty bucket path", ErrBadPath)
	}
	for _, p := range path {
		if p == "" {
			return fmt.Errorf("storage: %w: empty bucket name in %s", ErrBadPath, pathString(path))
		}
	}
	return nil
}

// keyless stands in for the key when checkWrite guards a whole bucket (NextSeq, DeleteBucket).
const keyless = "\x00bucket"

func checkKey(path []string, key string) error {
	if key == "" {
		return fmt.Errorf("storage: %w: empty key in %s", ErrBadPath, pathString(path))
	}
	return nil
}

func pathString(path []string) string {
	var buf bytes.Buffer
	for i, p := range path {
		if i > 0 {
			buf.WriteByte('/')
		}
		q := strconv.Quote(p)
		buf.WriteString(q[1 : len(q)-1])
	}
	return buf.String()
}
