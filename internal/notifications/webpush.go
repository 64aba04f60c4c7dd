package notifications

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"
)

// Web Push's message encryption (RFC 8291, "aes128gcm" of RFC 8188) and
// the application server's identification (VAPID, RFC 8292), written with
// the standard library: no served module implements them.
//
// Threat model: the push service relays the message and must learn
// nothing of it: each message is encrypted to the subscription's P-256
// key with a fresh ephemeral key and salt, and authenticated with the
// subscription's secret. The VAPID key (the server's identity to push
// services) is kept like the guest key, beside the database.

var b64 = base64.RawURLEncoding

// decode64 reads base64url with or without padding (browsers give it
// without; some libraries with).
func decode64(s string) ([]byte, error) {
	for len(s)%4 != 0 && len(s) > 0 && s[len(s)-1] == '=' {
		s = s[:len(s)-1]
	}
	for len(s) > 0 && s[len(s)-1] == '=' {
		s = s[:len(s)-1]
	}
	return b64.DecodeString(s)
}

// recordSize is the one record's size the header announces (RFC 8188);
// a push message is one record.
const recordSize = 4096

// maxPlaintext is the longest message one record holds: the record
// less the tag (16) and the delimiter (1), and the header (86) out of the
// 4096 bytes push services accept.
const maxPlaintext = recordSize - 16 - 1 - 86

// encrypt encrypts plaintext for the subscription's key uaPublic (65
// bytes, uncompressed P-256) and secret auth (16 bytes), with the
// ephemeral key as and salt (RFC 8291 section 3.4): the body of the push.
func encrypt(plaintext, uaPublic, auth []byte, as *ecdh.PrivateKey, salt []byte) ([]byte, error) {
	if len(plaintext) > maxPlaintext {
		return nil, fmt.Errorf("webpush: message of %d bytes, at most %d", len(plaintext), maxPlaintext)
	}
	if len(auth) != 16 || len(salt) != 16 {
		return nil, errors.New("webpush: the auth secret and the salt are 16 bytes")
	}
	ua, err := ecdh.P256().NewPublicKey(uaPublic)
	if err != nil {
		return nil, fmt.Errorf("webpush: subscription key: %w", err)
	}
	cek, nonce, err := contentKeys(as, ua, auth, salt, as.PublicKey().Bytes(), uaPublic)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	asPublic := as.PublicKey().Bytes()
	header := make([]byte, 0, 16+4+1+len(asPublic))
	header = append(header, salt...)
	header = binary.BigEndian.AppendUint32(header, recordSize)
	header = append(header, byte(len(asPublic)))
	header = append(header, asPublic...)
	padded := append(append(make([]byte, 0, len(plaintext)+1), plaintext...), 2) // the last record's delimiter
	return gcm.Seal(header, nonce, padded, nil), nil
}

// contentKeys derives the content encryption key and the nonce from the
// ECDH of priv and pub (either side's: the secret is the same).
func contentKeys(priv *ecdh.PrivateKey, pub *ecdh.PublicKey, auth, salt, asPublic, uaPublic []byte) (cek, nonce []byte, err error) {
	secret, err := priv.ECDH(pub)
	if err != nil {
		return nil, nil, fmt.Errorf("webpush: ecdh: %w", err)
	}
	keyInfo := append(append([]byte("WebPush: info\x00"), uaPublic...), asPublic...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(keyInfo), 32)
	if err != nil {
		return nil, nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, nil, err
	}
	if cek, err = hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16); err != nil {
		return nil, nil, err
	}
	if nonce, err = hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12); err != nil {
		return nil, nil, err
	}
	return cek, nonce, nil
}

// decrypt is the user agent's side of encrypt (the tests' receiver, and a
// check of the format): ua is the subscription's private key.
func decrypt(body []byte, ua *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("webpush: short body")
	}
	salt, idlen := body[:16], int(body[20])
	if len(body) < 21+idlen {
		return nil, errors.New("webpush: short header")
	}
	asPublic, ct := body[21:21+idlen], body[21+idlen:]
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, fmt.Errorf("webpush: sender key: %w", err)
	}
	cek, nonce, err := contentKeys(ua, as, auth, salt, asPublic, ua.PublicKey().Bytes())
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	p, err := gcm.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, fmt.Errorf("webpush: %w", err)
	}
	for i := len(p) - 1; i >= 0; i-- { // strip the padding up to the delimiter
		switch p[i] {
		case 0:
			continue
		case 2:
			return p[:i], nil
		}
		break
	}
	return nil, errors.New("webpush: no last record's delimiter")
}

// VAPID is the server's identity to push services (RFC 8292).
type VAPID struct {
	key     *ecdsa.PrivateKey
	public  []byte // uncompressed P-256, 65 bytes
	subject string // "mailto:…" or the site's URL
}

// NewVAPID makes the identity from a 32-byte private scalar (LoadGuestKey
// keeps one in a file) and a contact (a mailto: or https: URL).
func NewVAPID(scalar []byte, subject string) (*VAPID, error) {
	if len(scalar) < 32 {
		return nil, fmt.Errorf("vapid: key of %d bytes, want 32", len(scalar))
	}
	key, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), scalar[:32])
	if err != nil {
		return nil, fmt.Errorf("vapid: %w", err)
	}
	pub, err := key.PublicKey.Bytes()
	if err != nil {
		return nil, fmt.Errorf("vapid: %w", err)
	}
	return &VAPID{key: key, public: pub, subject: subject}, nil
}

// PublicKey is the application server key the browser subscribes with
// (base64url).
func (v *VAPID) PublicKey() string { return b64.EncodeToString(v.public) }

// Authorization returns the Authorization header of a push to endpoint:
// "vapid t=<JWT>, k=<key>", the JWT (ES256) for the endpoint's origin,
// valid until exp.
func (v *VAPID) Authorization(endpoint string, exp time.Time, rnd io.Reader) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("vapid: endpoint %q is not a URL", endpoint)
	}
	head, _ := json.Marshal(map[string]string{"typ": "JWT", "alg": "ES256"})
	claims, _ := json.Marshal(map[string]any{"aud": u.Scheme + "://" + u.Host, "exp": exp.Unix(), "sub": v.subject})
	signing := b64.EncodeToString(head) + "." + b64.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rnd, v.key, sum[:])
	if err != nil {
		return "", fmt.Errorf("vapid: sign: %w", err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return "vapid t=" + signing + "." + b64.EncodeToString(sig) + ", k=" + v.PublicKey(), nil
}

// Encrypt encrypts plaintext for a subscription (its p256dh key and auth
// secret, base64url as the browser gives them) with a fresh ephemeral key
// and salt.
func Encrypt(plaintext []byte, p256dh, auth string) ([]byte, error) {
	ua, err := decode64(p256dh)
	if err != nil {
		return nil, fmt.Errorf("webpush: p256dh: %w", err)
	}
	secret, err := decode64(auth)
	if err != nil {
		return nil, fmt.Errorf("webpush: auth: %w", err)
	}
	as, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	return encrypt(plaintext, ua, secret, as, salt)
}
