package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// TLS modes of an SMTP server.
const (
	TLSStartTLS = "starttls" // plain connection upgraded by STARTTLS, which must succeed (port 587)
	TLSImplicit = "tls"      // TLS from the first byte (port 465)
	TLSNone     = "none"     // no encryption: only for a relay on the same machine or network
)

// SMTPConfig is how to reach the SMTP server (toguz serve's -smtp-* options).
type SMTPConfig struct {
	Host     string // "": mail is off
	Port     int    // 0: 587, or 465 with TLSImplicit, 25 with TLSNone
	User     string // "": no authentication
	Password string
	From     string // the sender's address, e.g. "Toguz <noreply@example.org>"
	TLS      string // TLSStartTLS (""), TLSImplicit or TLSNone
	// TLSConfig overrides the TLS client's configuration (tests: their own CA).
	TLSConfig *tls.Config
	Timeout   time.Duration // of one delivery; 0: 30 s
}

// Enabled reports whether an SMTP server is configured.
func (c SMTPConfig) Enabled() bool { return c.Host != "" }

// Check reports what is wrong with c, naming the option.
func (c SMTPConfig) Check() error {
	if !c.Enabled() {
		return nil
	}
	switch c.TLS {
	case "", TLSStartTLS, TLSImplicit, TLSNone:
	default:
		return fmt.Errorf("smtp-tls %q: want %s, %s or %s", c.TLS, TLSStartTLS, TLSImplicit, TLSNone)
	}
	if c.Port < 0 || c.Port > 65535 {
		return fmt.Errorf("smtp-port %d: want 1 to 65535", c.Port)
	}
	if c.From == "" {
		return errors.New("smtp-from: the sender's address is required with -smtp-host")
	}
	if _, err := mail.ParseAddress(c.From); err != nil {
		return fmt.Errorf("smtp-from %q: %w", c.From, err)
	}
	return nil
}

// ReadPasswordFile returns the SMTP password: the first line of the file.
func ReadPasswordFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("smtp-password-file: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimRight(line, "\r"), nil
}

// SMTP delivers messages to an SMTP server, one connection per message.
type SMTP struct{ cfg SMTPConfig }

// NewSMTP returns the sender of cfg (after cfg.Check).
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if !cfg.Enabled() {
		return nil, ErrOff
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &SMTP{cfg: cfg}, nil
}

// Send delivers m now.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("mail: from %q: %w", s.cfg.From, err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetMessageID()
	msg.SetDate()
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	opts := []gomail.Option{gomail.WithTimeout(s.cfg.Timeout)}
	port := s.cfg.Port
	switch s.cfg.TLS {
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL())
		if port == 0 {
			port = 465
		}
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
		if port == 0 {
			port = 25
		}
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
		if port == 0 {
			port = 587
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if s.cfg.TLSConfig != nil {
		opts = append(opts, gomail.WithTLSConfig(s.cfg.TLSConfig))
	}
	if s.cfg.User != "" {
		auth := gomail.SMTPAuthAutoDiscover
		if s.cfg.TLS == TLSNone {
			// Without TLS go-mail refuses to send a password unless told
			// that the link is trusted (a relay on this machine).
			auth = gomail.SMTPAuthPlainNoEnc
		}
		opts = append(opts, gomail.WithSMTPAuth(auth), gomail.WithUsername(s.cfg.User), gomail.WithPassword(s.cfg.Password))
	}
	c, err := gomail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("mail: client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send to %s:%d: %w", s.cfg.Host, port, err)
	}
	return nil
}
