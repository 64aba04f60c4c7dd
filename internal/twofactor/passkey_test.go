package twofactor

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
)

// softKey is a passkey of a software authenticator, as Chromium's virtual
// one keeps it: a P-256 key, its credential id, the user handle it was
// made for and its signature counter. It answers the server's ceremonies
// as WebAuthn's JSON encoding of a PublicKeyCredential, with "none"
// attestation.
type softKey struct {
	t      *testing.T
	key    *ecdsa.PrivateKey
	id     []byte
	handle []byte
	count  uint32
	origin string
	rpID   string
}

func newSoftKey(t *testing.T) *softKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{t: t, key: k, id: id, origin: "http://localhost", rpID: "localhost"}
}

var b64 = base64.RawURLEncoding

func (k *softKey) clientData(typ string, challenge []byte) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": b64.EncodeToString(challenge), "origin": k.origin})
	return b
}

// authData is the authenticator data: the RP id's hash, the flags (user
// present and verified, and attested data when cose is given) and the
// counter.
func (k *softKey) authData(cose []byte) []byte {
	h := sha256.Sum256([]byte(k.rpID))
	flags := byte(0x01 | 0x04)
	if cose != nil {
		flags |= 0x40
	}
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	if cose != nil {
		out = append(out, make([]byte, 16)...) // AAGUID
		out = binary.BigEndian.AppendUint16(out, uint16(len(k.id)))
		out = append(out, k.id...)
		out = append(out, cose...)
	}
	return out
}

// create answers a registration's options.
func (k *softKey) create(c Ceremony) json.RawMessage {
	k.t.Helper()
	opts := c.PublicKey.(protocol.PublicKeyCredentialCreationOptions)
	k.handle = []byte(opts.User.ID.(protocol.URLEncodedBase64))
	x, y := make([]byte, 32), make([]byte, 32)
	k.key.X.FillBytes(x)
	k.key.Y.FillBytes(y)
	cose, err := webauthncbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: x, -3: y})
	if err != nil {
		k.t.Fatal(err)
	}
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(cose)})
	if err != nil {
		k.t.Fatal(err)
	}
	return k.credential(map[string]any{"clientDataJSON": b64.EncodeToString(k.clientData("webauthn.create", opts.Challenge)),
		"attestationObject": b64.EncodeToString(att), "transports": []string{"internal"}})
}

// get answers an assertion's options, its counter one higher.
func (k *softKey) get(c Ceremony) json.RawMessage {
	k.t.Helper()
	opts := c.PublicKey.(protocol.PublicKeyCredentialRequestOptions)
	k.count++
	cd := k.clientData("webauthn.get", opts.Challenge)
	ad := k.authData(nil)
	sum := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), sum[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		k.t.Fatal(err)
	}
	return k.credential(map[string]any{"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(ad),
		"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(k.handle)})
}

func (k *softKey) credential(response map[string]any) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": response, "clientExtensionResults": map[string]any{}})
	return b
}

// request is a request to the site at http://localhost.
func request() *http.Request {
	r := httptest.NewRequest("POST", "http://localhost/api/login/passkey", nil)
	r.Host = "localhost"
	return r
}

// TestPasskeyCeremonies: a passkey registered after the password comes
// with recovery codes; it logs in without a password and serves as the
// second step; a challenge serves once and only its purpose; a
// counter that goes back (a clone) and a wrong origin are refused.
func TestPasskeyCeremonies(t *testing.T) {
	s, _, a, _ := newTestSite(t)
	ctx := t.Context()
	r := request()
	if _, err := s.BeginRegister(ctx, r, a, "wrong"); err == nil {
		t.Fatal("registration begun with a wrong password")
	}
	c, err := s.BeginRegister(ctx, r, a, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	key := newSoftKey(t)
	cred := key.create(c)
	if _, _, err := s.FinishRegister(ctx, r, a, c.Challenge, "", cred); !isErr(err, errName) {
		t.Errorf("no name: %v", err)
	}
	pk, codes, err := s.FinishRegister(ctx, r, a, c.Challenge, "Laptop", cred)
	if err != nil || pk.Name != "Laptop" || len(codes) != RecoveryCodes {
		t.Fatalf("FinishRegister = %+v, %d codes, %v", pk, len(codes), err)
	}
	if _, _, err := s.FinishRegister(ctx, r, a, c.Challenge, "Laptop", cred); !isErr(err, errChallenge) {
		t.Errorf("the challenge twice: %v", err)
	}
	c, _ = s.BeginRegister(ctx, r, a, "correct horse")
	if _, _, err := s.FinishRegister(ctx, r, a, c.Challenge, "Again", key.create(c)); !isErr(err, errKnownDevice) {
		t.Errorf("the same authenticator's key twice: %v", err)
	}
	if st, _ := s.StatusOf(ctx, a.ID); !st.On() || st.TOTP || len(st.Passkeys) != 1 || st.RecoveryLeft != RecoveryCodes {
		t.Errorf("status after the first passkey: %+v", st)
	}

	// Password-less.
	d, err := s.BeginDiscover(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	answer := key.get(d)
	who, err := s.FinishDiscover(ctx, r, d.Challenge, answer)
	if err != nil || who.ID != a.ID {
		t.Fatalf("password-less login: %+v %v", who, err)
	}
	if _, err := s.FinishDiscover(ctx, r, d.Challenge, answer); !isErr(err, errChallenge) {
		t.Errorf("the same answer again: %v, want the challenge used", err)
	}

	// The second step of a password login.
	n, ok := IsNeeded(s.Gate(ctx, a))
	if !ok || !n.Passkey || n.TOTP || !n.Recovery {
		t.Fatalf("gate with a passkey: %+v", n)
	}
	as, err := s.BeginAssert(ctx, r, n.Ticket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishDiscover(ctx, r, as.Challenge, key.get(as)); !isErr(err, errChallenge) {
		t.Errorf("a second step's challenge used for a password-less login: %v", err)
	}
	as, _ = s.BeginAssert(ctx, r, n.Ticket)
	if who, err := s.FinishAssert(ctx, r, n.Ticket, as.Challenge, key.get(as)); err != nil || who.ID != a.ID {
		t.Fatalf("the passkey as the second step: %+v %v", who, err)
	}
	if _, err := s.BeginAssert(ctx, r, n.Ticket); !isErr(err, errTicket) {
		t.Errorf("the ticket after its second step: %v, want used", err)
	}

	// A clone: its counter is behind the one the server saw.
	clone := *key
	clone.count = 0
	d, _ = s.BeginDiscover(ctx, r)
	if _, err := s.FinishDiscover(ctx, r, d.Challenge, clone.get(d)); err == nil {
		t.Error("a cloned authenticator's answer accepted")
	}
	// Another origin (a phishing page relaying the challenge).
	key.origin = "http://evil.example"
	d, _ = s.BeginDiscover(ctx, r)
	if _, err := s.FinishDiscover(ctx, r, d.Challenge, key.get(d)); err == nil {
		t.Error("an answer made for another origin accepted")
	}
	key.origin = "http://localhost"
	d, _ = s.BeginDiscover(ctx, r)
	if _, err := s.FinishDiscover(ctx, r, d.Challenge, key.get(d)); err != nil {
		t.Errorf("the right origin again: %v", err)
	}

	// Removing the last passkey removes the recovery codes with it.
	if err := s.RemovePasskey(ctx, a, pk.ID+1000); !isErr(err, errNoPasskey) {
		t.Errorf("removing an unknown passkey: %v", err)
	}
	if err := s.RemovePasskey(ctx, a, pk.ID); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.StatusOf(ctx, a.ID); st.On() || st.RecoveryLeft != 0 {
		t.Errorf("after removing the last passkey: %+v", st)
	}
}

// TestPasskeyAtAddress: a site reached at an IP address has no relying
// party (WebAuthn needs a domain) and says so.
func TestPasskeyAtAddress(t *testing.T) {
	s, _, a, _ := newTestSite(t)
	r := httptest.NewRequest("POST", "http://127.0.0.1:8080/api/login/passkey", nil)
	if _, err := s.BeginDiscover(t.Context(), r); !isErr(err, errAddress) {
		t.Errorf("password-less at an IP address: %v", err)
	}
	if _, err := s.BeginRegister(t.Context(), r, a, "correct horse"); !isErr(err, errAddress) {
		t.Errorf("registration at an IP address: %v", err)
	}
}
