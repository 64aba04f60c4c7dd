package twofactor

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the package keeps: *store.Store satisfies it.
type Store interface {
	TOTP(ctx context.Context, user int64) (store.TOTP, error)
	PutTOTP(ctx context.Context, user int64, secret []byte) error
	ConfirmTOTP(ctx context.Context, user, step int64, hashes []string) error
	UseTOTPStep(ctx context.Context, user, step int64) (bool, error)
	DeleteTOTP(ctx context.Context, user int64) error
	DeleteRecoveryCodes(ctx context.Context, user int64) error
	ReplaceRecoveryCodes(ctx context.Context, user int64, hashes []string) error
	UseRecoveryCode(ctx context.Context, user int64, hash string) (bool, error)
	RecoveryCodesLeft(ctx context.Context, user int64) (int, error)

	AddPasskey(ctx context.Context, p store.Passkey) (int64, error)
	Passkeys(ctx context.Context, user int64) ([]store.Passkey, error)
	PasskeyByCredentialID(ctx context.Context, credentialID []byte) (store.Passkey, error)
	UsePasskey(ctx context.Context, id int64, credential []byte, t time.Time) error
	DeletePasskey(ctx context.Context, user, id int64) error

	PutPending(ctx context.Context, p store.Pending) error
	PendingToken(ctx context.Context, hash, kind string, take bool) (store.Pending, error)
	DeletePending(ctx context.Context, hash string) error

	AddTwoFactorFailure(ctx context.Context, user int64, window time.Duration) (int, error)
	TwoFactorFailures(ctx context.Context, user int64, window time.Duration) (int, error)

	UserByID(ctx context.Context, id int64) (store.User, error)
}

var _ Store = (*store.Store)(nil)

// The bounds.
const (
	// MaxFailures wrong codes of an account in FailureWindow lock its
	// second step until the window ends.
	MaxFailures   = 10
	FailureWindow = 15 * time.Minute
	// TicketTTL is how long a login waits for its second step, and a
	// WebAuthn ceremony for its answer.
	TicketTTL = 5 * time.Minute
	// RecoveryCodes are made at a time.
	RecoveryCodes = 10
	// MaxPasskeys an account may register.
	MaxPasskeys = 20
	// MaxNameLen is the longest passkey name, in runes.
	MaxNameLen = 50
	// KeySize is the length of Config.Key.
	KeySize = 32
)

// The TOTP parameters every authenticator app understands.
var totpOpts = totp.ValidateOpts{Period: 30, Skew: 0, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// Config is what a Site is built from.
type Config struct {
	Store Store
	Kit   site.Kit
	// Key seals the TOTP secrets (KeySize bytes).
	Key []byte
	// Origin is the site's public URL (scheme://host[:port]), the
	// passkeys' origin and its host their relying party's ID; "": each
	// request's own (fit for http://localhost, not behind a proxy).
	Origin string
	// Issuer names the site in authenticator apps ("": toguz).
	Issuer string
	// Login starts a session for the account whose second factor (or
	// passkey) was right: it sets the cookie and returns the token.
	Login func(w http.ResponseWriter, r *http.Request, a site.Account) (string, error)
	// CheckPassword checks the password of account a (disabling TOTP with
	// the password); its error is the client's.
	CheckPassword func(ctx context.Context, a site.Account, password, ip string) error
	// ClientIP is the address of r (bounds per address).
	ClientIP func(r *http.Request) string
	// Now and Rand default to time.Now and crypto/rand.
	Now  func() time.Time
	Rand io.Reader
}

// Site is the second factor's domain, pages and API.
type Site struct {
	cfg  Config
	aead cipher.AEAD
	ips  *addrLimiter
}

// New returns the Site of cfg.
func New(cfg Config) (*Site, error) {
	if len(cfg.Key) != KeySize {
		return nil, fmt.Errorf("twofactor: key of %d bytes, want %d", len(cfg.Key), KeySize)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	if cfg.Issuer == "" {
		cfg.Issuer = "toguz"
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = func(r *http.Request) string { return r.RemoteAddr }
	}
	cfg.Origin = strings.TrimRight(cfg.Origin, "/")
	block, err := aes.NewCipher(cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("twofactor: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("twofactor: %w", err)
	}
	return &Site{cfg: cfg, aead: aead, ips: newAddrLimiter(cfg.Now)}, nil
}

// The errors a client sees (their texts in locales/*/twofactor.json).
var (
	errWrongCode   = apierr.New(http.StatusUnauthorized, apierr.CodeBadCredentials, "twofactor.err.wrong_code")
	errPassword    = apierr.New(http.StatusUnauthorized, apierr.CodeBadCredentials, "twofactor.err.password")
	errLocked      = apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "twofactor.err.locked")
	errTicket      = apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "twofactor.err.ticket")
	errNoSetup     = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "twofactor.err.no_setup")
	errEnabled     = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "twofactor.err.enabled")
	errChallenge   = apierr.New(http.StatusBadRequest, apierr.CodeBadRequest, "twofactor.err.challenge")
	errName        = apierr.New(http.StatusBadRequest, apierr.CodeBadRequest, "twofactor.err.name", MaxNameLen)
	errTooMany     = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "twofactor.err.too_many", MaxPasskeys)
	errTooFast     = apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "twofactor.err.too_fast")
	errNoPasskey   = apierr.New(http.StatusNotFound, apierr.CodeNotFound, "twofactor.err.no_passkey")
	errKnownDevice = apierr.New(http.StatusConflict, apierr.CodeBadRequest, "twofactor.err.known_passkey")
	errAddress     = apierr.New(http.StatusBadRequest, apierr.CodeBadRequest, "twofactor.err.address")
)

// passkeyErr is the error of a passkey's answer refused, with its cause
// (English) as the detail. (A shared *apierr.Error must not be given a
// detail: WithDetail sets it in place.)
func passkeyErr(cause error) *apierr.Error {
	return apierr.New(http.StatusUnauthorized, apierr.CodeBadCredentials, "twofactor.err.passkey").WithDetail(cause)
}

// ---- sealing ----

// seal encrypts a TOTP secret of user: a version byte, the nonce, the
// ciphertext; the user's id is the additional data, so that a row copied
// to another account does not open.
func (s *Site) seal(user int64, secret string) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := io.ReadFull(s.cfg.Rand, nonce); err != nil {
		return nil, fmt.Errorf("twofactor: nonce: %w", err)
	}
	out := append([]byte{1}, nonce...)
	return s.aead.Seal(out, nonce, []byte(secret), aad(user)), nil
}

func (s *Site) open(user int64, sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n || sealed[0] != 1 {
		return "", fmt.Errorf("twofactor: sealed secret of user %d: bad format", user)
	}
	plain, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], aad(user))
	if err != nil {
		return "", fmt.Errorf("twofactor: sealed secret of user %d: %w (another key?)", user, err)
	}
	return string(plain), nil
}

func aad(user int64) []byte { return []byte("toguz totp " + strconv.FormatInt(user, 10)) }

// ---- TOTP ----

// Enrolment is a new TOTP secret waiting for its first code.
type Enrolment struct {
	Secret string // base32, as typed into an app
	URL    string // otpauth://, as a QR code carries it
}

// Setup makes a new, unconfirmed secret for a after his password
// (someone who holds only his session must not lock him out of his
// account with a factor of his own), replacing an unconfirmed one;
// errEnabled when a has a confirmed one.
func (s *Site) Setup(ctx context.Context, a site.Account, password, ip string) (Enrolment, error) {
	if err := s.checkPassword(ctx, a, password, ip); err != nil {
		return Enrolment{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: s.cfg.Issuer, AccountName: a.Name, Period: 30,
		SecretSize: 20, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1, Rand: s.cfg.Rand})
	if err != nil {
		return Enrolment{}, fmt.Errorf("twofactor: %w", err)
	}
	sealed, err := s.seal(a.ID, key.Secret())
	if err != nil {
		return Enrolment{}, err
	}
	if err := s.cfg.Store.PutTOTP(ctx, a.ID, sealed); errors.Is(err, store.ErrConflict) {
		return Enrolment{}, errEnabled
	} else if err != nil {
		return Enrolment{}, err
	}
	return Enrolment{Secret: key.Secret(), URL: key.URL()}, nil
}

// Pending returns a's unconfirmed enrolment (ok false: none).
func (s *Site) Pending(ctx context.Context, a site.Account) (Enrolment, bool, error) {
	t, err := s.cfg.Store.TOTP(ctx, a.ID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && t.Confirmed) {
		return Enrolment{}, false, nil
	}
	if err != nil {
		return Enrolment{}, false, err
	}
	secret, err := s.open(a.ID, t.Secret)
	if err != nil {
		return Enrolment{}, false, nil // sealed under a lost key: a new setup replaces it
	}
	key, err := s.keyOf(a.Name, secret)
	if err != nil {
		return Enrolment{}, false, err
	}
	return Enrolment{Secret: secret, URL: key.URL()}, true, nil
}

// matchStep returns the time step (of now's and the two beside it) whose
// code is code, comparing in constant time.
func (s *Site) matchStep(secret, code string) (int64, bool) {
	now := s.cfg.Now().Unix() / 30
	for _, step := range []int64{now, now - 1, now + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*30, 0), totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}

// Confirm enables a's unconfirmed secret when code is right and returns
// the recovery codes, which are shown once.
func (s *Site) Confirm(ctx context.Context, a site.Account, code string) ([]string, error) {
	if err := s.checkLocked(ctx, a.ID); err != nil {
		return nil, err
	}
	t, err := s.cfg.Store.TOTP(ctx, a.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoSetup
	}
	if err != nil {
		return nil, err
	}
	if t.Confirmed {
		return nil, errEnabled
	}
	secret, err := s.open(a.ID, t.Secret)
	if err != nil {
		return nil, err
	}
	step, ok := s.matchStep(secret, normalizeDigits(code))
	if !ok {
		return nil, s.fail(ctx, a.ID)
	}
	codes, hashes, err := s.newRecoveryCodes(a.ID)
	if err != nil {
		return nil, err
	}
	if err := s.cfg.Store.ConfirmTOTP(ctx, a.ID, step, hashes); errors.Is(err, store.ErrConflict) {
		return nil, errEnabled
	} else if err != nil {
		return nil, err
	}
	return codes, nil
}

// Status is what an account has of a second factor.
type Status struct {
	TOTP         bool // a confirmed secret
	RecoveryLeft int  // recovery codes unused (made with TOTP or the first passkey)
	Passkeys     []store.Passkey
}

// On reports whether a login must take a second step.
func (st Status) On() bool { return st.TOTP || len(st.Passkeys) > 0 }

// StatusOf returns what user has of a second factor.
func (s *Site) StatusOf(ctx context.Context, user int64) (Status, error) {
	var st Status
	t, err := s.cfg.Store.TOTP(ctx, user)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Status{}, err
	}
	st.TOTP = err == nil && t.Confirmed
	if st.RecoveryLeft, err = s.cfg.Store.RecoveryCodesLeft(ctx, user); err != nil {
		return Status{}, err
	}
	if st.Passkeys, err = s.cfg.Store.Passkeys(ctx, user); err != nil {
		return Status{}, err
	}
	return st, nil
}

// Verify checks a second-factor code of user: a TOTP code (six digits)
// or a recovery code. A wrong one counts against the account; a right one
// is not accepted again.
func (s *Site) Verify(ctx context.Context, user int64, code string) error {
	if err := s.checkLocked(ctx, user); err != nil {
		return err
	}
	if d := normalizeDigits(code); len(d) == 6 && isDigits(d) {
		t, err := s.cfg.Store.TOTP(ctx, user)
		if errors.Is(err, store.ErrNotFound) || (err == nil && !t.Confirmed) {
			return s.fail(ctx, user)
		}
		if err != nil {
			return err
		}
		secret, err := s.open(user, t.Secret)
		if err != nil {
			// Sealed under a lost key (docs/accounts.md): no code is
			// right; recovery codes and passkeys still are.
			return s.fail(ctx, user)
		}
		step, ok := s.matchStep(secret, d)
		if !ok {
			return s.fail(ctx, user)
		}
		fresh, err := s.cfg.Store.UseTOTPStep(ctx, user, step)
		if err != nil {
			return err
		}
		if !fresh {
			return s.fail(ctx, user) // a replay, or an older code than the last accepted
		}
		return nil
	}
	rc := normalizeRecovery(code)
	if len(rc) != recoveryLen {
		return s.fail(ctx, user)
	}
	ok, err := s.cfg.Store.UseRecoveryCode(ctx, user, recoveryHash(user, rc))
	if err != nil {
		return err
	}
	if !ok {
		return s.fail(ctx, user)
	}
	return nil
}

// checkPassword checks a's password (no password: wrong).
func (s *Site) checkPassword(ctx context.Context, a site.Account, password, ip string) error {
	if password == "" || s.cfg.CheckPassword == nil {
		return errPassword
	}
	return s.cfg.CheckPassword(ctx, a, password, ip)
}

// codeOrPassword checks a code of a when one is given, else his password.
func (s *Site) codeOrPassword(ctx context.Context, a site.Account, code, password, ip string) error {
	if strings.TrimSpace(code) != "" {
		return s.Verify(ctx, a.ID, code)
	}
	return s.checkPassword(ctx, a, password, ip)
}

// Disable removes a's TOTP after a right code or password, and his
// recovery codes when no passkey is left for them to serve.
func (s *Site) Disable(ctx context.Context, a site.Account, code, password, ip string) error {
	if err := s.codeOrPassword(ctx, a, code, password, ip); err != nil {
		return err
	}
	if err := s.cfg.Store.DeleteTOTP(ctx, a.ID); err != nil {
		return err
	}
	return s.dropCodesIfOff(ctx, a.ID)
}

// dropCodesIfOff removes user's recovery codes once he has no second
// factor left.
func (s *Site) dropCodesIfOff(ctx context.Context, user int64) error {
	st, err := s.StatusOf(ctx, user)
	if err != nil || st.On() {
		return err
	}
	return s.cfg.Store.DeleteRecoveryCodes(ctx, user)
}

// RenewRecovery makes new recovery codes for a after a right code or his
// password; the old ones no longer work.
func (s *Site) RenewRecovery(ctx context.Context, a site.Account, code, password, ip string) ([]string, error) {
	st, err := s.StatusOf(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	if !st.On() {
		return nil, errNoSetup
	}
	if err := s.codeOrPassword(ctx, a, code, password, ip); err != nil {
		return nil, err
	}
	codes, hashes, err := s.newRecoveryCodes(a.ID)
	if err != nil {
		return nil, err
	}
	return codes, s.cfg.Store.ReplaceRecoveryCodes(ctx, a.ID, hashes)
}

// checkLocked refuses every code of an account past its bound.
func (s *Site) checkLocked(ctx context.Context, user int64) error {
	n, err := s.cfg.Store.TwoFactorFailures(ctx, user, FailureWindow)
	if err != nil {
		return err
	}
	if n >= MaxFailures {
		return errLocked
	}
	return nil
}

// fail counts a wrong code and returns its error.
func (s *Site) fail(ctx context.Context, user int64) error {
	n, err := s.cfg.Store.AddTwoFactorFailure(ctx, user, FailureWindow)
	if err != nil {
		return err
	}
	if n >= MaxFailures {
		return errLocked
	}
	return errWrongCode
}

// ---- recovery codes ----

const recoveryLen = 10 // base32 letters: 50 random bits

var recoveryEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func (s *Site) newRecoveryCodes(user int64) (codes, hashes []string, err error) {
	for range RecoveryCodes {
		b := make([]byte, 7)
		if _, err := io.ReadFull(s.cfg.Rand, b); err != nil {
			return nil, nil, fmt.Errorf("twofactor: recovery code: %w", err)
		}
		c := recoveryEncoding.EncodeToString(b)[:recoveryLen]
		codes = append(codes, c[:5]+"-"+c[5:])
		hashes = append(hashes, recoveryHash(user, c))
	}
	return codes, hashes, nil
}

func recoveryHash(user int64, code string) string {
	h := sha256.Sum256([]byte("toguz recovery " + strconv.FormatInt(user, 10) + " " + code))
	return hex.EncodeToString(h[:])
}

func normalizeRecovery(code string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '2' && r <= '7':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return -1
	}, code)
}

func normalizeDigits(code string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.TrimSpace(code))
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// keyOf returns the otpauth:// key of name's secret, as apps read it.
func (s *Site) keyOf(name, secret string) (*otp.Key, error) {
	u := url.URL{Scheme: "otpauth", Host: "totp", Path: "/" + s.cfg.Issuer + ":" + name, RawQuery: url.Values{
		"secret": {secret}, "issuer": {s.cfg.Issuer}, "algorithm": {"SHA1"}, "digits": {"6"}, "period": {"30"}}.Encode()}
	key, err := otp.NewKeyFromURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("twofactor: %w", err)
	}
	return key, nil
}

// ErrorKeys are the catalog keys of the package's errors.
func ErrorKeys() []string {
	keys := []string{"twofactor.err.passkey"}
	for _, e := range []*apierr.Error{errWrongCode, errPassword, errLocked, errTicket, errNoSetup, errEnabled, errChallenge, errName,
		errTooMany, errTooFast, errNoPasskey, errKnownDevice, errAddress} {
		keys = append(keys, e.Key)
	}
	return keys
}
