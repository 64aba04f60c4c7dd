// Package auth provides the accounts, sessions and rate limits of the web
// server (which keeps its own guest identities and CSRF protection).
//
// Features:
//   - Passwords: [HashPassword] makes an argon2id PHC string
//     ($argon2id$v=19$m=…,t=…,p=…$salt$key) with [Params] as options
//     ([DefaultParams] in production, cheap ones in tests); [CheckPassword]
//     compares in constant time; [NeedsRehash] tells when parameters changed.
//   - Rules: [ValidateName] and [ValidatePassword] return a [*RuleError]
//     naming the rule that was broken; names starting with "Guest-", the
//     server's guest names, are refused.
//   - [Service]: sign-up ([Service.SignUp]), login ([Service.Login]: the
//     same work whether or not the name exists, and a rehash when the
//     parameters changed), server-side sessions whose token is 256 random
//     bits while the database holds only its SHA-256 ([Service.NewSession],
//     [Service.SessionUser], which deletes an expired one,
//     [Service.DeleteSession]); the server carries the token in its own
//     cookie.
//     Errors callers test: [ErrBadCredentials], [ErrRateLimited],
//     [ErrBusy], [ErrNameTaken], [ErrNoSession].
//   - Rate limits: [Limiter], token buckets per key (golang.org/x/time/rate)
//     with an injected clock and bounded memory; the Service limits logins
//     and sign-ups per address ([AddrKey]: the IPv4 address, the IPv6 /64),
//     and locks out an (account, address) pair after wrong passwords with
//     exponential back-off ([Lockout]), so that a stranger cannot lock the
//     owner out ([Limits], [DefaultLimits]).
//   - A bound on the argon2 hashes at once (golang.org/x/sync/semaphore;
//     [Config.MaxHashes], [DefaultMaxHashes]): each holds 19 MiB, so logins
//     beyond it wait [Config.HashWait] at most, then get ErrBusy;
//     [Service.Stats] counts them.
//     [ClientIP] is the request's address, proxies' headers not trusted.
package auth

import (
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's parameters.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	SaltLen uint32 // bytes; 16 when zero
	KeyLen  uint32 // bytes; 32 when zero
}

// DefaultParams are OWASP's first recommendation for argon2id: 19 MiB, 2
// passes, 1 thread.
func DefaultParams() Params {
	return Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
}

func (p Params) withDefaults() Params {
	if p.SaltLen == 0 {
		p.SaltLen = 16
	}
	if p.KeyLen == 0 {
		p.KeyLen = 32
	}
	if p.Threads == 0 {
		p.Threads = 1
	}
	if p.Time == 0 {
		p.Time = 1
	}
	if p.Memory < 8*uint32(p.Threads) {
		p.Memory = 8 * uint32(p.Threads) // argon2's minimum
	}
	return p
}

// ErrMalformedHash is returned for a stored hash that is not an argon2id PHC string.
var ErrMalformedHash = errors.New("auth: malformed password hash")

var b64 = base64.RawStdEncoding

// HashPassword hashes password with a fresh salt read from random.
func HashPassword(password string, p Params, random io.Reader) (string, error) {
	p = p.withDefaults()
	salt := make([]byte, p.SaltLen)
	if _, err := io.ReadFull(random, salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// decode reads a PHC string.
func decode(encoded string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, ErrMalformedHash
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, fmt.Errorf("%w: version %q", ErrMalformedHash, parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil || p.Time == 0 || p.Threads == 0 {
		return p, nil, nil, fmt.Errorf("%w: parameters %q", ErrMalformedHash, parts[3])
	}
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return p, nil, nil, fmt.Errorf("%w: salt", ErrMalformedHash)
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) == 0 {
		return p, nil, nil, fmt.Errorf("%w: key", ErrMalformedHash)
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}

// CheckPassword reports whether password matches the PHC string encoded,
// comparing in constant time.
func CheckPassword(password, encoded string) (bool, error) {
	p, salt, key, err := decode(encoded)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// NeedsRehash reports whether encoded was made with parameters other than p.
func NeedsRehash(encoded string, p Params) bool {
	q, _, _, err := decode(encoded)
	return err != nil || q != p.withDefaults()
}
