package twofactor

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// waUser is an account as WebAuthn sees it. Its user handle is the
// account's id (8 bytes): an opaque number, not the name.
type waUser struct {
	a     site.Account
	creds []webauthn.Credential
}

func (u waUser) WebAuthnID() []byte                         { return userHandle(u.a.ID) }
func (u waUser) WebAuthnName() string                       { return u.a.Name }
func (u waUser) WebAuthnDisplayName() string                { return u.a.Name }
func (u waUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func userHandle(id int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(id)) }

// relyingParty returns the WebAuthn relying party for r: Config.Origin's,
// else r's own origin (http://localhost for the tests).
func (s *Site) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	origin := s.cfg.Origin
	if origin == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("twofactor: origin %q: not a URL", origin)
	}
	// WebAuthn's relying party is a domain: a site reached at an IP
	// address has no passkeys.
	if _, err := netip.ParseAddr(u.Hostname()); err == nil {
		return nil, errAddress
	}
	return webauthn.New(&webauthn.Config{RPID: u.Hostname(), RPDisplayName: s.cfg.Issuer, RPOrigins: []string{origin}})
}

// waUserOf returns a with his passkeys' records.
func (s *Site) waUserOf(ctx context.Context, a site.Account) (waUser, []store.Passkey, error) {
	keys, err := s.cfg.Store.Passkeys(ctx, a.ID)
	if err != nil {
		return waUser{}, nil, err
	}
	u := waUser{a: a}
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal(k.Credential, &c); err != nil {
			return waUser{}, nil, fmt.Errorf("twofactor: passkey %d: %w", k.ID, err)
		}
		u.creds = append(u.creds, c)
	}
	return u, keys, nil
}

// Ceremony is what the browser gets to begin a WebAuthn ceremony: the
// options of navigator.credentials and the challenge's token to send back.
type Ceremony struct {
	Challenge string `json:"challenge"`
	PublicKey any    `json:"publicKey"`
}

func (s *Site) saveSession(ctx context.Context, kind string, user int64, sd *webauthn.SessionData) (string, error) {
	data, err := json.Marshal(sd)
	if err != nil {
		return "", fmt.Errorf("twofactor: %w", err)
	}
	return s.newToken(ctx, kind, user, data)
}

// takeSession returns the ceremony of challenge (once).
func (s *Site) takeSession(ctx context.Context, challenge, kind string) (store.Pending, webauthn.SessionData, error) {
	p, err := s.pending(ctx, challenge, kind, true)
	if err != nil {
		return store.Pending{}, webauthn.SessionData{}, err
	}
	var sd webauthn.SessionData
	if err := json.Unmarshal(p.Data, &sd); err != nil {
		return store.Pending{}, webauthn.SessionData{}, fmt.Errorf("twofactor: ceremony: %w", err)
	}
	return p, sd, nil
}

// BeginRegister begins the registration of a new passkey of a, after
// his password (a passkey opens the account without one).
func (s *Site) BeginRegister(ctx context.Context, r *http.Request, a site.Account, password string) (Ceremony, error) {
	if err := s.checkPassword(ctx, a, password, s.cfg.ClientIP(r)); err != nil {
		return Ceremony{}, err
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		return Ceremony{}, err
	}
	u, keys, err := s.waUserOf(ctx, a)
	if err != nil {
		return Ceremony{}, err
	}
	if len(keys) >= MaxPasskeys {
		return Ceremony{}, errTooMany
	}
	var exclude []protocol.CredentialDescriptor
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	cc, sd, err := rp.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationPreferred}),
		webauthn.WithExclusions(exclude))
	if err != nil {
		return Ceremony{}, fmt.Errorf("twofactor: begin registration: %w", err)
	}
	t, err := s.saveSession(ctx, kindRegister, a.ID, sd)
	if err != nil {
		return Ceremony{}, err
	}
	return Ceremony{Challenge: t, PublicKey: cc.Response}, nil
}

// FinishRegister stores the passkey the browser made for a under name.
// The first second factor of an account comes with its recovery codes,
// returned to be shown once (nil when a has them already).
func (s *Site) FinishRegister(ctx context.Context, r *http.Request, a site.Account, challenge, name string, credential json.RawMessage) (store.Passkey, []string, error) {
	pk, err := s.finishRegister(ctx, r, a, challenge, name, credential)
	if err != nil {
		return store.Passkey{}, nil, err
	}
	st, err := s.StatusOf(ctx, a.ID)
	if err != nil || st.TOTP || st.RecoveryLeft > 0 {
		return pk, nil, err
	}
	codes, hashes, err := s.newRecoveryCodes(a.ID)
	if err != nil {
		return pk, nil, err
	}
	return pk, codes, s.cfg.Store.ReplaceRecoveryCodes(ctx, a.ID, hashes)
}

func (s *Site) finishRegister(ctx context.Context, r *http.Request, a site.Account, challenge, name string, credential json.RawMessage) (store.Passkey, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxNameLen {
		return store.Passkey{}, errName
	}
	p, sd, err := s.takeSession(ctx, challenge, kindRegister)
	if err != nil {
		return store.Passkey{}, err
	}
	if p.User != a.ID {
		return store.Passkey{}, errChallenge
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		return store.Passkey{}, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return store.Passkey{}, passkeyErr(err)
	}
	u, _, err := s.waUserOf(ctx, a)
	if err != nil {
		return store.Passkey{}, err
	}
	cred, err := rp.CreateCredential(u, sd, parsed)
	if err != nil {
		return store.Passkey{}, passkeyErr(err)
	}
	rec, err := json.Marshal(cred)
	if err != nil {
		return store.Passkey{}, fmt.Errorf("twofactor: %w", err)
	}
	pk := store.Passkey{User: a.ID, CredentialID: cred.ID, Name: name, Credential: rec, Created: s.cfg.Now()}
	pk.ID, err = s.cfg.Store.AddPasskey(ctx, pk)
	if errors.Is(err, store.ErrConflict) {
		return store.Passkey{}, errKnownDevice
	}
	return pk, err
}

// RemovePasskey removes a's passkey id (errNoPasskey: a has none of that
// id), and his recovery codes with his last second factor.
func (s *Site) RemovePasskey(ctx context.Context, a site.Account, id int64) error {
	err := s.cfg.Store.DeletePasskey(ctx, a.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return errNoPasskey
	}
	if err != nil {
		return err
	}
	return s.dropCodesIfOff(ctx, a.ID)
}

// BeginAssert begins a passkey assertion as the second step of the
// login of ticket, for the ticket's account's passkeys.
func (s *Site) BeginAssert(ctx context.Context, r *http.Request, ticket string) (Ceremony, error) {
	p, err := s.pending(ctx, ticket, kindLogin, false)
	if err != nil {
		return Ceremony{}, err
	}
	a, err := s.account(ctx, p.User)
	if err != nil {
		return Ceremony{}, err
	}
	u, keys, err := s.waUserOf(ctx, a)
	if err != nil {
		return Ceremony{}, err
	}
	if len(keys) == 0 {
		return Ceremony{}, errNoPasskey
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		return Ceremony{}, err
	}
	ca, sd, err := rp.BeginLogin(u, webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return Ceremony{}, fmt.Errorf("twofactor: begin login: %w", err)
	}
	t, err := s.saveSession(ctx, kindAssert, a.ID, sd)
	if err != nil {
		return Ceremony{}, err
	}
	return Ceremony{Challenge: t, PublicKey: ca.Response}, nil
}

// FinishAssert checks the passkey's answer to the second step of the
// login of ticket and returns its account (the ticket is used up).
func (s *Site) FinishAssert(ctx context.Context, r *http.Request, ticket, challenge string, credential json.RawMessage) (site.Account, error) {
	p, err := s.pending(ctx, ticket, kindLogin, false)
	if err != nil {
		return site.Account{}, err
	}
	if err := s.checkLocked(ctx, p.User); err != nil {
		return site.Account{}, err
	}
	cp, sd, err := s.takeSession(ctx, challenge, kindAssert)
	if err != nil {
		return site.Account{}, err
	}
	if cp.User != p.User {
		return site.Account{}, errChallenge
	}
	a, err := s.account(ctx, p.User)
	if err != nil {
		return site.Account{}, err
	}
	u, _, err := s.waUserOf(ctx, a)
	if err != nil {
		return site.Account{}, err
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		return site.Account{}, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return site.Account{}, s.failPasskey(ctx, a.ID, err)
	}
	cred, err := rp.ValidateLogin(u, sd, parsed)
	if err != nil {
		return site.Account{}, s.failPasskey(ctx, a.ID, err)
	}
	if err := s.usePasskey(ctx, a.ID, cred); err != nil {
		return site.Account{}, err
	}
	if _, err := s.pending(ctx, ticket, kindLogin, true); err != nil {
		return site.Account{}, err
	}
	return a, nil
}

// failPasskey counts a refused assertion against user.
func (s *Site) failPasskey(ctx context.Context, user int64, cause error) error {
	if err := s.fail(ctx, user); err != errWrongCode {
		return err
	}
	return passkeyErr(cause)
}

// usePasskey records the use of cred (its counter) and refuses a clone.
func (s *Site) usePasskey(ctx context.Context, user int64, cred *webauthn.Credential) error {
	if cred.Authenticator.CloneWarning {
		return passkeyErr(errors.New("the authenticator's signature counter went back: a cloned authenticator?"))
	}
	pk, err := s.cfg.Store.PasskeyByCredentialID(ctx, cred.ID)
	if err != nil {
		return err
	}
	if pk.User != user {
		return passkeyErr(nil)
	}
	rec, err := json.Marshal(cred)
	if err != nil {
		return fmt.Errorf("twofactor: %w", err)
	}
	return s.cfg.Store.UsePasskey(ctx, pk.ID, rec, s.cfg.Now())
}

// BeginDiscover begins a password-less login: any passkey of this site
// on the user's authenticator, with user verification.
func (s *Site) BeginDiscover(ctx context.Context, r *http.Request) (Ceremony, error) {
	if err := s.allowAddr(r); err != nil {
		return Ceremony{}, err
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		return Ceremony{}, err
	}
	ca, sd, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return Ceremony{}, fmt.Errorf("twofactor: begin login: %w", err)
	}
	t, err := s.saveSession(ctx, kindDiscover, 0, sd)
	if err != nil {
		return Ceremony{}, err
	}
	return Ceremony{Challenge: t, PublicKey: ca.Response}, nil
}

// FinishDiscover checks a password-less login's answer and returns the
// account of the passkey used.
func (s *Site) FinishDiscover(ctx context.Context, r *http.Request, challenge string, credential json.RawMessage) (site.Account, error) {
	_, sd, err := s.takeSession(ctx, challenge, kindDiscover)
	if err != nil {
		return site.Account{}, err
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		return site.Account{}, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return site.Account{}, passkeyErr(err)
	}
	var who site.Account
	handler := func(rawID, handle []byte) (webauthn.User, error) {
		pk, err := s.cfg.Store.PasskeyByCredentialID(ctx, rawID)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(handle, userHandle(pk.User)) {
			return nil, errors.New("the user handle is not the passkey's account's")
		}
		if who, err = s.account(ctx, pk.User); err != nil {
			return nil, err
		}
		if err := s.checkLocked(ctx, pk.User); err != nil {
			return nil, err
		}
		u, _, err := s.waUserOf(ctx, who)
		return u, err
	}
	cred, err := rp.ValidateDiscoverableLogin(handler, sd, parsed)
	if err != nil {
		if errors.Is(err, errLocked) {
			return site.Account{}, errLocked
		}
		if who.ID != 0 {
			return site.Account{}, s.failPasskey(ctx, who.ID, err)
		}
		return site.Account{}, passkeyErr(err)
	}
	if err := s.usePasskey(ctx, who.ID, cred); err != nil {
		return site.Account{}, err
	}
	return who, nil
}
