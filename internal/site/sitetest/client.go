package sitetest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/notify"
)

// Notices is a notify.Sender that keeps every notice it is given.
type Notices struct {
	mu  sync.Mutex
	got []notify.Notice
}

func (n *Notices) Send(_ context.Context, x notify.Notice) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, x)
	return nil
}

// Take returns the notices sent since the last Take.
func (n *Notices) Take() []notify.Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	got := n.got
	n.got = nil
	return got
}

// Clock is a clock the test sets.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock that reads now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Client sends a test's requests to a site served at URL.
type Client struct {
	T   testing.TB
	URL string
	// Follow follows redirects; without it a redirect is the answer.
	Follow bool
}

// Response is an answer read whole.
type Response struct {
	Status   int
	Location string
	Header   http.Header
	Body     []byte
}

// JSON decodes the body as a JSON object (nil when it is none).
func (r Response) JSON() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Body, &m)
	return m
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// Do sends method path as token ("": nobody) with body: none for nil, a
// form for url.Values, JSON for anything else. header is pairs of a
// header's name and value.
func (c Client) Do(method, path, token string, body any, header ...string) Response {
	c.T.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.T.Fatal(err)
		}
		rd, ctype = strings.NewReader(string(j)), "application/json"
	}
	req, err := http.NewRequest(method, c.URL+path, rd)
	if err != nil {
		c.T.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	hc := noRedirect
	if c.Follow {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		c.T.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Fatal(err)
	}
	return Response{Status: resp.StatusCode, Location: resp.Header.Get("Location"), Header: resp.Header, Body: b}
}
