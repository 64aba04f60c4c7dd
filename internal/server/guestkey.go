package server

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/store"
)

// Guest tokens are issued and signed by the server: guest_ID.MAC, where ID
// is 130 random bits (base32) and MAC the HMAC-SHA256 of ID under the
// server's guest key (base64url). A guest identity costs the server a
// request to POST /api/guest, under the write limits per address, instead
// of nothing, and a token the server did not sign is refused
// (errForgedGuest) instead of being a new guest.

// guestKeySize is the length of the guest key in bytes.
const guestKeySize = 32

// errForgedGuest is the answer to a guest token this server did not sign.
var errForgedGuest = apierr.New(http.StatusUnauthorized, apierr.CodeBadGuestToken, "apierr.forged_guest")

// guestSigner issues and checks guest tokens.
type guestSigner struct{ key []byte }

// newGuestSigner returns a signer with key, or with a random key when key
// is empty (guests then lose their identity when the server restarts).
func newGuestSigner(key []byte) (guestSigner, error) {
	if len(key) == 0 {
		key = make([]byte, guestKeySize)
		rand.Read(key)
	}
	if len(key) < 16 {
		return guestSigner{}, fmt.Errorf("guest key: %d bytes, want at least 16", len(key))
	}
	return guestSigner{key: key}, nil
}

func (g guestSigner) mac(id string) string {
	m := hmac.New(sha256.New, g.key)
	m.Write([]byte("toguz guest " + id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// issue returns a new signed guest token.
func (g guestSigner) issue() string {
	id := rand.Text()
	return guestPrefix + id + "." + g.mac(id)
}

// valid reports whether t (which starts with guestPrefix) was issued with
// this key.
func (g guestSigner) valid(t string) bool {
	id, mac, ok := strings.Cut(strings.TrimPrefix(t, guestPrefix), ".")
	return ok && id != "" && hmac.Equal([]byte(mac), []byte(g.mac(id)))
}

// guestKeyFile is the file of the guest key that opts name: GuestKeyFile,
// else beside an SQLite database file, else (a PostgreSQL URL, which is
// no path) toguz.guestkey in the working directory.
func guestKeyFile(opts Options) string {
	if opts.GuestKeyFile != "" {
		return opts.GuestKeyFile
	}
	return opts.DB + ".guestkey"
}

// guestKey returns the key that signs guest tokens: Options.GuestKeyFile's
// when set; on PostgreSQL, whose nodes may run on several machines, the
// one every node shares in the database (made by the first to need it);
// else the file beside the SQLite database.
func guestKey(ctx context.Context, opts Options, st *store.Store) ([]byte, error) {
	if opts.GuestKeyFile == "" && store.IsPostgres(opts.DB) {
		return st.Secret(ctx, "guest_key", func() ([]byte, error) {
			key := make([]byte, guestKeySize)
			_, err := rand.Read(key)
			return key, err
		})
	}
	return LoadGuestKey(guestKeyFile(opts))
}

// LoadGuestKey returns the guest key kept in the file at path, creating the
// file with a new random key (mode 0600) when there is none, so that guests
// keep their identity across restarts.
func LoadGuestKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key := make([]byte, guestKeySize)
		rand.Read(key)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return LoadGuestKey(path) // made meanwhile by another process
		}
		if err != nil {
			return nil, fmt.Errorf("guest key: %w", err)
		}
		_, err = f.WriteString(hex.EncodeToString(key) + "\n")
		if err := errors.Join(err, f.Close()); err != nil {
			return nil, fmt.Errorf("guest key %s: %w", path, err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("guest key: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("guest key %s: want at least 32 hex digits on one line", path)
	}
	return key, nil
}
