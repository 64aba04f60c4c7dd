package account

import (
	"bytes"
	"strings"
	"testing"
)

func TestDevice(t *testing.T) {
	tests := []struct{ ua, want string }{
		{"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox / Linux"},
		{"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36", "Chrome / Android"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", "Safari / iOS"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0", "Edge / Windows"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 OPR/115.0", "Opera / macOS"},
		{"curl/8.5.0", "curl"},
		{"Go-http-client/1.1", "Go"},
		{"something else", "?"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Device(tt.ua); got != tt.want {
			t.Errorf("Device(%q) = %q, want %q", tt.ua, got, tt.want)
		}
	}
}

func TestValidateEmail(t *testing.T) {
	tests := []struct {
		in, want string // want "": refused
	}{
		{"abai@example.org", "abai@example.org"},
		{"  Abai.Q+toguz@mail.example.kz ", "Abai.Q+toguz@mail.example.kz"},
		{"абай@пример.қаз", "абай@пример.қаз"},
		{"", ""},
		{"abai", ""},
		{"abai@localhost", ""},
		{"Abai <abai@example.org>", ""},
		{"a@example.org, b@example.org", ""},
		{"abai@example.org\r\nBcc: x@example.org", ""},
		{strings.Repeat("a", 250) + "@example.org", ""},
		{"\xff@example.org", ""},
	}
	for _, tt := range tests {
		got, err := ValidateEmail(tt.in)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("ValidateEmail(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestLinkSignature: a token is signed for its purpose; any change of it,
// or another purpose, fails the check.
func TestLinkSignature(t *testing.T) {
	s := &Service{cfg: Config{Rand: bytes.NewReader(bytes.Repeat([]byte{7}, 64))}, key: []byte("0123456789abcdef0123456789abcdef")}
	tok, err := s.newToken(PurposeReset)
	if err != nil {
		t.Fatal(err)
	}
	if !s.signed(tok, PurposeReset) {
		t.Fatal("a fresh token is not signed")
	}
	if s.signed(tok, PurposeVerify) {
		t.Error("a reset token passes as a verification token")
	}
	flip := []byte(tok)
	flip[3] ^= 1
	other := &Service{key: []byte("another key, 32 bytes long......")}
	for _, bad := range []string{string(flip), tok[:len(tok)-1], tok + "A", strings.Replace(tok, ".", "", 1), "", "."} {
		if s.signed(bad, PurposeReset) {
			t.Errorf("signed(%q) = true", bad)
		}
	}
	if other.signed(tok, PurposeReset) {
		t.Error("a token passes under another site's key")
	}
}
