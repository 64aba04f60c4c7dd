// Package smtptest runs a real SMTP server (github.com/emersion/go-smtp) in
// the test's process, on a loopback port: the mail the site sends is read
// back from it as a person's mail program would, headers decoded. It can
// require a login and refuse deliveries, to test the sender's retries.
package smtptest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mail is one delivered message.
type Mail struct {
	From    string
	To      []string
	Subject string // decoded
	Body    string // decoded
	Header  mail.Header
}

// Server is an SMTP server for one test.
type Server struct {
	Host string
	Port int

	srv *smtp.Server

	mu       sync.Mutex
	mails    []Mail
	arrived  chan struct{}
	refuse   int    // deliveries still to refuse
	user, pw string // required login ("": none)
}

// Start starts a server on a loopback port, closed when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{arrived: make(chan struct{}, 1)}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().(*net.TCPAddr)
	s.Host, s.Port = "127.0.0.1", addr.Port
	go s.srv.Serve(l)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// RequireLogin makes the server accept mail only after an AUTH PLAIN as
// user with password pw.
func (s *Server) RequireLogin(user, pw string) {
	s.mu.Lock()
	s.user, s.pw = user, pw
	s.mu.Unlock()
}

// Refuse makes the server refuse the next n deliveries with a temporary
// error (451).
func (s *Server) Refuse(n int) {
	s.mu.Lock()
	s.refuse = n
	s.mu.Unlock()
}

// Mails returns the messages delivered so far.
func (s *Server) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// Wait returns the first message to address (in any case) delivered
// within d, else fails the test.
func (s *Server) Wait(t testing.TB, to string, d time.Duration) Mail {
	t.Helper()
	m, ok := s.WaitFor(to, d)
	if !ok {
		t.Fatalf("no mail to %s within %v; delivered: %d", to, d, len(s.Mails()))
	}
	return m
}

// WaitFor is Wait without a test: false when none came.
func (s *Server) WaitFor(to string, d time.Duration) (Mail, bool) {
	deadline := time.After(d)
	for {
		for _, m := range s.Mails() {
			for _, r := range m.To {
				if strings.EqualFold(r, to) {
					return m, true
				}
			}
		}
		select {
		case <-s.arrived:
		case <-deadline:
			return Mail{}, false
		}
	}
}

// Take is Wait that also removes the message, so that the next Wait for
// the same address waits for a new one.
func (s *Server) Take(t testing.TB, to string, d time.Duration) Mail {
	t.Helper()
	m := s.Wait(t, to, d)
	s.mu.Lock()
	for i := range s.mails {
		if s.mails[i].Body == m.Body && s.mails[i].Subject == m.Subject && strings.EqualFold(s.mails[i].To[0], m.To[0]) {
			s.mails = append(s.mails[:i], s.mails[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	return m
}

// Link returns the first URL in the body that starts with prefix.
func (m Mail) Link(prefix string) string {
	for _, f := range strings.Fields(m.Body) {
		if strings.HasPrefix(f, prefix) {
			return strings.TrimRight(f, ".,)")
		}
	}
	return ""
}

type session struct {
	s      *Server
	authed bool
	from   string
	to     []string
}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pw string) error {
		ss.s.mu.Lock()
		defer ss.s.mu.Unlock()
		if user != ss.s.user || pw != ss.s.pw {
			return errors.New("invalid username or password")
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.s.mu.Lock()
	need := ss.s.user != ""
	ss.s.mu.Unlock()
	if need && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	if ss.s.refuse > 0 {
		ss.s.refuse--
		ss.s.mu.Unlock()
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	ss.s.mu.Unlock()
	m, err := parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: err.Error()}
	}
	m.From, m.To = ss.from, ss.to
	ss.s.mu.Lock()
	ss.s.mails = append(ss.s.mails, m)
	ss.s.mu.Unlock()
	select {
	case ss.s.arrived <- struct{}{}:
	default:
	}
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// parse decodes a single-part text message.
func parse(raw []byte) (Mail, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Mail{}, fmt.Errorf("message: %w", err)
	}
	var dec mime.WordDecoder
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return Mail{}, fmt.Errorf("subject: %w", err)
	}
	var body io.Reader = msg.Body
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return Mail{}, fmt.Errorf("body: %w", err)
	}
	return Mail{Subject: subject, Body: strings.ReplaceAll(string(b), "\r\n", "\n"), Header: msg.Header}, nil
}
