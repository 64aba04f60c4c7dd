package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
)

// BackupInfo describes a backup Backup made.
type BackupInfo struct {
	Bytes         int64 // the backup file's size
	SchemaVersion int64 // its migrations' version
}

// Backup copies the SQLite database file from to the new file to while
// servers use it: SQLite's VACUUM INTO, one read transaction of the WAL
// database, so that the copy is the database as it was at one instant
// (every commit before the backup began is in it, none after) and the
// servers' writes go on meanwhile. The copy is then checked (PRAGMA
// integrity_check). to must not exist. A PostgreSQL URL is refused: its
// backups are pg_dump's (docs/deploy.md, "Backups").
func Backup(ctx context.Context, from, to string) (BackupInfo, error) {
	if IsPostgres(from) {
		return BackupInfo{}, fmt.Errorf("store: backup: %s is PostgreSQL: use pg_dump -Fc (docs/deploy.md, \"Backups\")", Redact(from))
	}
	if _, err := os.Stat(from); err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	if _, err := os.Stat(to); err == nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %s exists already", to)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	src, err := sql.Open("sqlite", "file:"+(&url.URL{Path: from}).EscapedPath()+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: open %s: %w", from, err)
	}
	defer src.Close()
	if _, err := src.ExecContext(ctx, `VACUUM INTO $1`, to); err != nil {
		os.Remove(to)
		return BackupInfo{}, fmt.Errorf("store: backup of %s into %s: %w", from, to, err)
	}
	info, err := checkBackup(ctx, to)
	if err != nil {
		return info, fmt.Errorf("store: backup %s: %w", to, err)
	}
	return info, nil
}

// checkBackup checks the SQLite file at path and reads its schema version.
func checkBackup(ctx context.Context, path string) (BackupInfo, error) {
	var info BackupInfo
	st, err := os.Stat(path)
	if err != nil {
		return info, err
	}
	info.Bytes = st.Size()
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro")
	if err != nil {
		return info, err
	}
	defer db.Close()
	var ok string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil {
		return info, err
	}
	if ok != "ok" {
		return info, fmt.Errorf("integrity check: %s", ok)
	}
	err = db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&info.SchemaVersion)
	return info, err
}
