// Package account is what a person does with his account beyond logging
// in: an e-mail address, verified by a mailed link; a password reset by
// e-mail; a change of address confirmed from the old and the new address;
// a change of password; the list of his sessions (device, address, last
// use), ending one or all the others; and a mail when a new device logs in.
// Its pages are at lichess's paths: /password/reset, /account/email,
// /account/passwd, /account/security.
//
// Threat model. The attacker may know a victim's name (names are public:
// /@/NAME) and address, read the site's database (not the mail), send any
// request from many addresses, and make the victim open a link.
//   - Taking over an account by the reset: a reset link goes only to a
//     verified address; it carries 192 random bits and an HMAC of them
//     under the site's key (a forged link is refused before the store is
//     read); the store keeps only its SHA-256, so a copy of the database
//     resets nothing; it is single-use (deleted in the transaction that
//     uses it) and expires in an hour; using it ends every session and
//     every other reset link.
//   - Learning whether a name or an address has an account: the reset form
//     answers the same page, at once, for every input: the work (finding
//     the account, making and mailing the link) is done after the answer,
//     by a worker; sign-up never says an address is in use (several
//     accounts may share one).
//   - Mail bombing a victim, or spending the site's mail: links are bounded
//     per account and per address (linksPerHour), requests per client
//     address (the limiter), the mail queue in all (internal/mail).
//   - Stealing an address (changing it to the attacker's): the change needs
//     the password and the confirmation of both addresses when the old one
//     is verified; each is mailed a link.
//   - Mail scanners that open links: a link's page only shows a button; the
//     change is a POST.
//   - Link poisoning (a reset link pointing at the attacker's host through a
//     forged Host header): links are built from the configured site URL,
//     never from the request.
//   - A stolen session: the owner sees it in /account/security and ends it;
//     a password change ends every other session, a reset every session; a
//     login from a device the account never used is mailed to its address.
package account

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/auth"
	tmail "github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the package keeps in the store (*store.Store).
type Store interface {
	UserByID(ctx context.Context, id int64) (store.User, error)
	UserByName(ctx context.Context, name string) (store.User, error)
	SetEmail(ctx context.Context, id int64, address string, verified time.Time) error
	EmailOf(ctx context.Context, id int64) (store.Email, error)
	VerifyEmail(ctx context.Context, id int64, address string, t time.Time) error
	AccountsByEmail(ctx context.Context, address string, limit int) ([]store.User, error)
	CreateAccountLink(ctx context.Context, l store.AccountLink) error
	AccountLinkByHash(ctx context.Context, hash, purpose string, now time.Time) (store.AccountLink, error)
	TakeAccountLink(ctx context.Context, hash, purpose string, now time.Time) (store.AccountLink, error)
	DeleteAccountLinks(ctx context.Context, id int64, purposes ...string) error
	CountAccountLinks(ctx context.Context, id int64, address string, since time.Time) (int, error)
	SweepAccountLinks(ctx context.Context, now time.Time) error
	PutEmailChange(ctx context.Context, c store.EmailChange) error
	EmailChangeOf(ctx context.Context, id int64, now time.Time) (store.EmailChange, error)
	ConfirmEmailChange(ctx context.Context, id int64, newEmail string, old bool, now time.Time) (bool, error)
	DeleteEmailChange(ctx context.Context, id int64) error
	PutSessionDevice(ctx context.Context, hash, device, addr string, t time.Time) error
	UserSessions(ctx context.Context, id int64, now time.Time) ([]store.SessionInfo, error)
	DeleteUserSession(ctx context.Context, id int64, prefix string) error
	DeleteOtherSessions(ctx context.Context, id int64, keep string) (int64, error)
	AddKnownDevice(ctx context.Context, id int64, device string, t time.Time) (bool, error)
	KnownDevices(ctx context.Context, id int64) (int, error)
	Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error)
}

// Passwords checks and sets passwords (*auth.Service).
type Passwords interface {
	Login(ctx context.Context, name, password, ip string) (store.User, error)
	SetPassword(ctx context.Context, id int64, name, password string) error
}

// Link purposes.
const (
	PurposeVerify   = "verify"
	PurposeReset    = "reset"
	PurposeEmailOld = "email_old"
	PurposeEmailNew = "email_new"
)

// Bounds.
const (
	ResetTTL      = time.Hour
	VerifyTTL     = 24 * time.Hour
	linksPerHour  = 3   // links mailed to one account, and to one address, an hour
	maxPerAddress = 5   // accounts one reset by address mails
	resetBacklog  = 256 // reset requests waiting for the worker; beyond, dropped (and logged)
	seenEvery     = time.Minute
	seenTracked   = 50000 // sessions whose last write is remembered
	MaxEmailLen   = 254
)

// Config configures a Service. Store is required; Kit too, but for a
// command that only makes reset links (ResetLink).
type Config struct {
	Kit       site.Kit
	Store     Store
	Passwords Passwords
	Mail      *tmail.Queue // nil or off: no mail is sent; the pages say so
	SiteURL   string       // the site's public URL, for the links in mail: https://toguz.example.org
	Now       func() time.Time
	Rand      io.Reader
	// RequestsPerHour bounds the mail-sending requests (reset, verify,
	// change of address) of one client address (0: 10; negative: none).
	RequestsPerHour int
}

// Service is the accounts' feature.
type Service struct {
	cfg   Config
	kit   site.Kit
	st    Store
	log   *slog.Logger
	key   []byte // the links' HMAC key
	ips   *auth.Limiter
	reset chan resetRequest

	mu   sync.Mutex
	seen map[string]time.Time // token hash → last write of its last use
}

type resetRequest struct {
	query, lang string
}

// New returns the service; it reads (or makes) the links' key in the store.
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	cfg.SiteURL = strings.TrimRight(cfg.SiteURL, "/")
	key, err := cfg.Store.Secret(ctx, "account-links", func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := io.ReadFull(cfg.Rand, b)
		return b, err
	})
	if err != nil {
		return nil, err
	}
	per := rate.Every(time.Hour / 10)
	burst := 10
	switch {
	case cfg.RequestsPerHour > 0:
		per, burst = rate.Every(time.Hour/time.Duration(cfg.RequestsPerHour)), cfg.RequestsPerHour
	case cfg.RequestsPerHour < 0:
		per, burst = rate.Inf, 0
	}
	log := slog.New(slog.DiscardHandler) // a command's Service, with no site (ResetLink)
	if cfg.Kit != nil {
		log = cfg.Kit.Logger()
	}
	return &Service{cfg: cfg, kit: cfg.Kit, st: cfg.Store, log: log, key: key,
		ips: auth.NewLimiter(per, burst, cfg.Now), reset: make(chan resetRequest, resetBacklog),
		seen: map[string]time.Time{}}, nil
}

// MailOn reports whether mail is sent.
func (s *Service) MailOn() bool { return s.cfg.Mail.Enabled() }

// Run works the reset requests and sweeps the expired links, until ctx is done.
func (s *Service) Run(ctx context.Context) {
	sweep := time.NewTicker(time.Hour)
	defer sweep.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case req := <-s.reset:
			s.doReset(ctx, req)
		case <-sweep.C:
			if err := s.st.SweepAccountLinks(ctx, s.cfg.Now()); err != nil && ctx.Err() == nil {
				s.log.Warn("sweep account links", "err", err)
			}
		}
	}
}

// ---- links ----

var b64 = base64.RawURLEncoding

// newToken returns a link's token: 24 random bytes and 16 bytes of their
// HMAC under the site's key, with the purpose in the MAC.
func (s *Service) newToken(purpose string) (string, error) {
	r := make([]byte, 24)
	if _, err := io.ReadFull(s.cfg.Rand, r); err != nil {
		return "", fmt.Errorf("account: random: %w", err)
	}
	return b64.EncodeToString(r) + "." + b64.EncodeToString(s.mac(purpose, r)), nil
}

func (s *Service) mac(purpose string, r []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write(r)
	return m.Sum(nil)[:16]
}

// signed reports whether token is one this site made for purpose.
func (s *Service) signed(token, purpose string) bool {
	rs, ms, ok := strings.Cut(token, ".")
	if !ok || len(token) > 100 {
		return false
	}
	r, err1 := b64.DecodeString(rs)
	m, err2 := b64.DecodeString(ms)
	return err1 == nil && err2 == nil && len(r) == 24 && hmac.Equal(m, s.mac(purpose, r))
}

func linkHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// errLimited: a bound of the links was reached.
var errLimited = errors.New("account: too many links")

// makeLink stores a link of purpose for user to address, within the
// bounds per account and per address, and returns its URL.
func (s *Service) makeLink(ctx context.Context, u store.User, purpose, address string, ttl time.Duration) (string, error) {
	now := s.cfg.Now()
	since := now.Add(-time.Hour)
	n, err := s.st.CountAccountLinks(ctx, u.ID, "", since)
	if err != nil {
		return "", err
	}
	m, err := s.st.CountAccountLinks(ctx, 0, address, since)
	if err != nil {
		return "", err
	}
	if n >= linksPerHour || m >= linksPerHour {
		return "", errLimited
	}
	tok, err := s.newToken(purpose)
	if err != nil {
		return "", err
	}
	if err := s.st.CreateAccountLink(ctx, store.AccountLink{TokenHash: linkHash(tok), UserID: u.ID, Purpose: purpose,
		Email: address, Created: now, Expires: now.Add(ttl)}); err != nil {
		return "", err
	}
	return s.linkURL(purpose, tok), nil
}

func (s *Service) linkURL(purpose, token string) string {
	if purpose == PurposeReset {
		return s.cfg.SiteURL + "/password/reset/" + token
	}
	return s.cfg.SiteURL + "/account/email/confirm/" + token
}

// ResetLink makes a reset link for the account name without mailing it,
// for the operator (toguz account reset-link): no bound applies, and it
// ends nothing until it is used.
func (s *Service) ResetLink(ctx context.Context, name string) (string, error) {
	u, err := s.st.UserByName(ctx, name)
	if err != nil {
		return "", err
	}
	tok, err := s.newToken(PurposeReset)
	if err != nil {
		return "", err
	}
	now := s.cfg.Now()
	if err := s.st.CreateAccountLink(ctx, store.AccountLink{TokenHash: linkHash(tok), UserID: u.ID, Purpose: PurposeReset,
		Created: now, Expires: now.Add(ResetTTL)}); err != nil {
		return "", err
	}
	return s.linkURL(PurposeReset, tok), nil
}

// send writes mail kind in lang to address and queues it.
func (s *Service) send(ctx context.Context, lang, address, kind string, args ...any) {
	if !s.MailOn() {
		return
	}
	m := tmail.Write(s.kit.Catalog(), lang, address, kind, args...)
	if err := s.cfg.Mail.Send(ctx, m); err != nil {
		s.log.Warn("mail not queued", "kind", kind, "err", err)
	}
}

// userLang is the language of mail to u: his choice, else the page's.
func userLang(u store.User, lang string) string {
	if u.Lang != "" {
		return u.Lang
	}
	return lang
}

// ---- addresses ----

// ValidateEmail checks an address as typed: one address, no name, at most
// MaxEmailLen bytes. It returns the address trimmed.
func ValidateEmail(address string) (string, error) {
	address = strings.TrimSpace(address)
	if address == "" || len(address) > MaxEmailLen || !utf8.ValidString(address) || strings.ContainsAny(address, "\r\n<>,;\" ") {
		return "", errBadEmail
	}
	a, err := mail.ParseAddress(address)
	if err != nil || a.Address != address || a.Name != "" || !strings.Contains(address[strings.LastIndexByte(address, '@')+1:], ".") {
		return "", errBadEmail
	}
	return address, nil
}

var errBadEmail = errors.New("account: not an e-mail address")

// SignedUp records the first session of a new account and its address
// (optional: "" is none), and mails the verification link.
func (s *Service) SignedUp(r *http.Request, id int64, token, address string) {
	ctx := context.WithoutCancel(r.Context())
	s.LoggedIn(r, id, token)
	if address == "" {
		return
	}
	if err := s.st.SetEmail(ctx, id, address, time.Time{}); err != nil {
		s.log.Warn("sign-up e-mail", "user", id, "err", err)
		return
	}
	u, err := s.st.UserByID(ctx, id)
	if err != nil {
		return
	}
	s.sendVerify(ctx, u, address, s.kit.Lang(r))
}

func (s *Service) sendVerify(ctx context.Context, u store.User, address, lang string) error {
	if !s.MailOn() {
		return nil
	}
	link, err := s.makeLink(ctx, u, PurposeVerify, address, VerifyTTL)
	if err != nil {
		return err
	}
	s.send(ctx, userLang(u, lang), address, "verify", u.Name, link)
	return nil
}

// ---- sessions ----

// LoggedIn records a new session's device and address, and mails the
// account's verified address when the device is new to it.
func (s *Service) LoggedIn(r *http.Request, id int64, token string) {
	ctx := context.WithoutCancel(r.Context())
	now := s.cfg.Now()
	device, ip := Device(r.UserAgent()), auth.ClientIP(r)
	if err := s.st.PutSessionDevice(ctx, auth.TokenHash(token), device, ip, now); err != nil {
		s.log.Warn("session device", "user", id, "err", err)
	}
	s.markSeen(auth.TokenHash(token), now)
	fresh, err := s.st.AddKnownDevice(ctx, id, device, now)
	if err != nil || !fresh {
		return
	}
	if n, _ := s.st.KnownDevices(ctx, id); n <= 1 {
		return // the account's first device: nothing to announce
	}
	e, err := s.st.EmailOf(ctx, id)
	if err != nil || e.Verified.IsZero() {
		return
	}
	u, err := s.st.UserByID(ctx, id)
	if err != nil {
		return
	}
	lang := userLang(u, s.kit.Lang(r))
	if device == "" || device == "?" {
		device = s.kit.Catalog().T(lang, "acct.security.unknown_device")
	}
	s.send(ctx, lang, e.Address, "new_device", u.Name, device, ip, now.UTC().Format("2006-01-02 15:04 UTC"), s.cfg.SiteURL+"/account/security")
}

// Seen records a session's use by r, at most once a minute per session.
func (s *Service) Seen(r *http.Request, token string) {
	h := auth.TokenHash(token)
	now := s.cfg.Now()
	s.mu.Lock()
	last, ok := s.seen[h]
	s.mu.Unlock()
	if ok && now.Sub(last) < seenEvery {
		return
	}
	s.markSeen(h, now)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), site.StoreTimeout)
	defer cancel()
	if err := s.st.PutSessionDevice(ctx, h, Device(r.UserAgent()), auth.ClientIP(r), now); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Warn("session seen", "err", err)
	}
}

func (s *Service) markSeen(h string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) >= seenTracked {
		clear(s.seen) // the next use of each writes again: a minute's worth of writes at most
	}
	s.seen[h] = now
}

// Device names the browser and system of a User-Agent briefly: "Firefox /
// Android"; "" for an empty one, "?" for one it does not know.
func Device(ua string) string {
	if ua == "" {
		return ""
	}
	browser := ""
	for _, b := range []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"YaBrowser/", "Yandex Browser"}, {"SamsungBrowser/", "Samsung Internet"},
		{"Firefox/", "Firefox"}, {"Chromium/", "Chromium"}, {"HeadlessChrome/", "Headless Chrome"}, {"Chrome/", "Chrome"},
		{"Safari/", "Safari"}, {"curl/", "curl"}, {"Go-http-client/", "Go"}, {"toguz", "toguz"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	system := ""
	for _, o := range []struct{ token, name string }{
		{"Android", "Android"}, {"iPhone", "iOS"}, {"iPad", "iPadOS"}, {"CrOS", "ChromeOS"}, {"Windows", "Windows"},
		{"Mac OS X", "macOS"}, {"Macintosh", "macOS"}, {"Linux", "Linux"}, {"FreeBSD", "FreeBSD"},
	} {
		if strings.Contains(ua, o.token) {
			system = o.name
			break
		}
	}
	switch {
	case browser == "" && system == "":
		return "?"
	case system == "":
		return browser
	case browser == "":
		return system
	}
	return browser + " / " + system
}
