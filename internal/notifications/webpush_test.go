package notifications

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"
)

// The example of RFC 8291, section 5 and appendix A.
const (
	rfcPlaintext = "When I grow up, I want to be a watermelon"
	rfcASPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
	rfcASPublic  = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
	rfcUAPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
	rfcUAPublic  = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
	rfcSalt      = "DGv6ra1nlYgDCS1FRnbzlw"
	rfcAuth      = "BTBZMqHH6r4Tts7J_aSIgg"
	rfcCEK       = "oIhVW04MRdy2XN9CiKLxTg"
	rfcMessage   = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
)

func must64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := decode64(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEncryptRFC8291(t *testing.T) {
	as, err := ecdh.P256().NewPrivateKey(must64(t, rfcASPrivate))
	if err != nil {
		t.Fatal(err)
	}
	if got := b64.EncodeToString(as.PublicKey().Bytes()); got != rfcASPublic {
		t.Fatalf("as_public %s, want %s", got, rfcASPublic)
	}
	ua, err := ecdh.P256().NewPrivateKey(must64(t, rfcUAPrivate))
	if err != nil {
		t.Fatal(err)
	}
	uaPub, _ := ecdh.P256().NewPublicKey(must64(t, rfcUAPublic))
	cek, _, err := contentKeys(as, uaPub, must64(t, rfcAuth), must64(t, rfcSalt), as.PublicKey().Bytes(), must64(t, rfcUAPublic))
	if err != nil {
		t.Fatal(err)
	}
	if got := b64.EncodeToString(cek); got != rfcCEK {
		t.Errorf("CEK %s, want %s", got, rfcCEK)
	}
	body, err := encrypt([]byte(rfcPlaintext), must64(t, rfcUAPublic), must64(t, rfcAuth), as, must64(t, rfcSalt))
	if err != nil {
		t.Fatal(err)
	}
	if got := b64.EncodeToString(body); got != rfcMessage {
		t.Errorf("message\n got %s\nwant %s", got, rfcMessage)
	}
	// The receiver's side: the RFC's message, and one with a fresh key
	// and salt through the exported Encrypt.
	for _, msg := range [][]byte{must64(t, rfcMessage), mustEncrypt(t, rfcUAPublic, rfcAuth)} {
		p, err := decrypt(msg, ua, must64(t, rfcAuth))
		if err != nil {
			t.Fatal(err)
		}
		if string(p) != rfcPlaintext {
			t.Errorf("decrypted %q", p)
		}
	}
	// A wrong secret does not open it.
	if _, err := decrypt(body, ua, make([]byte, 16)); err == nil {
		t.Error("decrypted with a wrong auth secret")
	}
}

func mustEncrypt(t *testing.T, p256dh, auth string) []byte {
	t.Helper()
	b, err := Encrypt([]byte(rfcPlaintext), p256dh, auth)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEncryptBounds(t *testing.T) {
	if _, err := Encrypt(bytes.Repeat([]byte("x"), maxPlaintext+1), rfcUAPublic, rfcAuth); err == nil {
		t.Error("encrypted a message past one record")
	}
	if _, err := Encrypt([]byte("x"), "AAAA", rfcAuth); err == nil {
		t.Error("encrypted to a key that is not a P-256 point")
	}
	if _, err := Encrypt([]byte("x"), rfcUAPublic, "AAAA"); err == nil {
		t.Error("encrypted with a short auth secret")
	}
}

// TestVAPID checks the Authorization header: a JWT (ES256) for the
// endpoint's origin whose signature the header's key verifies.
func TestVAPID(t *testing.T) {
	scalar := make([]byte, 32)
	rand.Read(scalar)
	v, err := NewVAPID(scalar, "mailto:ops@toguz.example")
	if err != nil {
		t.Fatal(err)
	}
	exp := time.Unix(1_800_000_000, 0)
	h, err := v.Authorization("https://push.example.net/send/abc?x=1", exp, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tok, key, ok := strings.Cut(strings.TrimPrefix(h, "vapid t="), ", k=")
	if !ok || !strings.HasPrefix(h, "vapid t=") || key != v.PublicKey() {
		t.Fatalf("header %q", h)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", tok)
	}
	var head map[string]string
	var claims map[string]any
	if err := json.Unmarshal(must64(t, parts[0]), &head); err != nil || head["alg"] != "ES256" || head["typ"] != "JWT" {
		t.Errorf("header %v %v", head, err)
	}
	if err := json.Unmarshal(must64(t, parts[1]), &claims); err != nil {
		t.Fatal(err)
	}
	if claims["aud"] != "https://push.example.net" || claims["sub"] != "mailto:ops@toguz.example" || claims["exp"] != float64(exp.Unix()) {
		t.Errorf("claims %v", claims)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), must64(t, key))
	if err != nil {
		t.Fatal(err)
	}
	sig := must64(t, parts[2])
	if len(sig) != 64 {
		t.Fatalf("signature of %d bytes", len(sig))
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, sum[:], r, s) {
		t.Error("the signature does not verify")
	}
	sig[5] ^= 1
	if ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), s) {
		t.Error("a changed signature verifies")
	}
	if _, err := NewVAPID(make([]byte, 32), "x"); err == nil {
		t.Error("a zero key made an identity")
	}
}
