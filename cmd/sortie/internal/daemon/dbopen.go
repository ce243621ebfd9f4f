package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"sortie/storage"
)

// OpenDatabase opens the configured database. A damaged or empty file gives an error that names the
// file and the newest copy in the backup folder to restore, never a Go trace.
func OpenDatabase(cfg *Config, opts storage.Options) (*storage.DB, error) {
	opts.InitEmpty = opts.InitEmpty || cfg.InitEmpty
	db, err := storage.Open(cfg.Database, opts)
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, storage.ErrEmptyFile):
		return nil, fmt.Errorf("%w\nThe database file %s exists but is empty: sortie will not start a new database over it on its own.\n"+
			"If a new, empty database is what you want, run the command again with --init.\n%s",
			err, cfg.Database, restoreHint(cfg))
	case errors.Is(err, storage.ErrCorrupt):
		return nil, fmt.Errorf("%w\nThe database file %s is damaged and sortie will not use it.\n%s", err, cfg.Database, restoreHint(cfg))
	}
	return nil, err
}

// restoreHint names the newest backup in the configured folder and how to put it back.
func restoreHint(cfg *Config) string {
	if cfg.Backup.Dir == "" {
		return "No backup folder is configured (backup.dir); restore a copy made with 'sortie backup' if you have one."
	}
	found, _ := filepath.Glob(filepath.Join(cfg.Backup.Dir, "sortie-*.db"))
	sort.Strings(found)
	for i := len(found) - 1; i >= 0; i-- {
		if st, err := os.Stat(found[i]); err == nil && st.Size() > 0 {
			return fmt.Sprintf("The latest backup is %s (%s). To restore it: stop sortie, move the damaged file aside, "+
				"copy the backup to %s, and start sortie again.", found[i], st.ModTime().UTC().Format("2006-01-02 15:04 UTC"), cfg.Database)
		}
	}
	return fmt.Sprintf("No backup was found in %s.", cfg.Backup.Dir)
}
