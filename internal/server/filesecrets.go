package server

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/twofactor"
)

// FileSecret is a secret that a server on SQLite keeps in a file beside
// the database (its path plus Suffix) and a server on PostgreSQL keeps in
// the database's secrets table under Name, so that every node shares it.
// `toguz copy-db` carries each of them from the file into the new database
// (CarrySecrets): a secret left behind would log out every guest, or make
// every sealed two-factor secret unreadable.
//
// A new secret kept this way joins by adding a line to FileSecrets: its
// name in the table, its file's suffix, and Value, which turns the file's
// content into the bytes the server on PostgreSQL uses as the same key.
type FileSecret struct {
	Name   string
	Suffix string
	Value  func(file []byte) ([]byte, error)
}

// FileSecrets are the secrets kept beside an SQLite database.
func FileSecrets() []FileSecret {
	return []FileSecret{
		{Name: "guest_key", Suffix: ".guestkey", Value: func(b []byte) ([]byte, error) { return hexKey(b, 16) }},
		{Name: "twofactor_key", Suffix: ".twofactorkey", Value: func(b []byte) ([]byte, error) {
			key, err := hexKey(b, twofactor.KeySize)
			if err != nil {
				return nil, err
			}
			return key[:twofactor.KeySize], nil // as twoFactorKey reads the file
		}},
		{Name: "vapid_key", Suffix: ".vapidkey", Value: func(b []byte) ([]byte, error) {
			key, err := hexKey(b, 32)
			if err != nil {
				return nil, err
			}
			return key[:32], nil // as vapidKey reads the file
		}},
	}
}

// hexKey reads a key file's hex digits (LoadGuestKey's format): at least
// min bytes.
func hexKey(b []byte, min int) ([]byte, error) {
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < min {
		return nil, fmt.Errorf("want at least %d hex digits on one line", 2*min)
	}
	return key, nil
}

// CarriedSecret is a secret CarrySecrets carried, or found no file for.
type CarriedSecret struct {
	Name, Path string
	Carried    bool // false: no file (the server never made that key)
}

// CarrySecrets keeps each of FileSecrets' files beside the SQLite database
// db in st's database under its name. A secret st keeps already with
// another value is an error (nothing is overwritten).
func CarrySecrets(ctx context.Context, db string, st *store.Store) ([]CarriedSecret, error) {
	var out []CarriedSecret
	for _, fsec := range FileSecrets() {
		path := db + fsec.Suffix
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, CarriedSecret{Name: fsec.Name, Path: path})
			continue
		}
		if err != nil {
			return out, fmt.Errorf("secret %s: %w", fsec.Name, err)
		}
		v, err := fsec.Value(b)
		if err != nil {
			return out, fmt.Errorf("secret %s: %s: %w", fsec.Name, path, err)
		}
		if err := st.PutSecret(ctx, fsec.Name, v); err != nil {
			return out, err
		}
		out = append(out, CarriedSecret{Name: fsec.Name, Path: path, Carried: true})
	}
	return out, nil
}

// CopyKeyFiles copies the key files beside the SQLite database from
// (FileSecrets) beside to, a backup of it, and returns the files made.
// A key file already beside to is an error: it would not match.
func CopyKeyFiles(from, to string) ([]string, error) {
	var made []string
	for _, fsec := range FileSecrets() {
		b, err := os.ReadFile(from + fsec.Suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return made, fmt.Errorf("secret %s: %w", fsec.Name, err)
		}
		f, err := os.OpenFile(to+fsec.Suffix, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return made, fmt.Errorf("secret %s: %w", fsec.Name, err)
		}
		_, err = f.Write(b)
		if err := errors.Join(err, f.Close()); err != nil {
			return made, fmt.Errorf("secret %s: %w", fsec.Name, err)
		}
		made = append(made, to+fsec.Suffix)
	}
	return made, nil
}
