package notifications

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// PushConfig is what a Pusher is built from.
type PushConfig struct {
	VAPID *VAPID // required
	// Store drops the subscriptions a push service says are gone.
	Store interface {
		DeletePushSubscription(ctx context.Context, userID int64, endpoint string) error
	}
	// AllowPrivate lets pushes go to loopback and private addresses (the
	// tests' receiver); a server refuses them, since an endpoint is a URL
	// a user gives.
	AllowPrivate bool
	// Queue bounds the pushes waiting (0: 1024); Workers send them (0: 2).
	Queue, Workers int
	Logger         *slog.Logger
}

// Pusher sends Web Push messages from a bounded queue.
//
// Threat model: an endpoint is a URL a user gives, and the server POSTs
// to it: it must be https (http only with AllowPrivate) and its address,
// checked when the connection is dialled (so a name that resolves to one
// is caught too), must not be loopback, private or link-local.
type Pusher struct {
	cfg    PushConfig
	client *http.Client
	jobs   chan pushJob
	wg     sync.WaitGroup
	log    *slog.Logger
	once   sync.Once
	stop   chan struct{}
}

type pushJob struct {
	sub  store.PushSubscription
	body []byte // the plaintext
}

// NewPusher returns a Pusher whose workers run until Close.
func NewPusher(cfg PushConfig) *Pusher {
	if cfg.Queue <= 0 {
		cfg.Queue = 1024
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !cfg.AllowPrivate {
		d.Control = refusePrivate
	}
	tr := &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: 10 * time.Second, MaxIdleConnsPerHost: 4, IdleConnTimeout: time.Minute}
	p := &Pusher{cfg: cfg, log: log, jobs: make(chan pushJob, cfg.Queue), stop: make(chan struct{}),
		client: &http.Client{Transport: tr, Timeout: 20 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	for range cfg.Workers {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// Close sends what is queued and stops.
func (p *Pusher) Close() {
	p.once.Do(func() { close(p.stop) })
	p.wg.Wait()
}

func refusePrivate(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return err
	}
	if a := ap.Addr().Unmap(); a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified() || a.IsMulticast() {
		return fmt.Errorf("webpush: refusing the private address %s", a)
	}
	return nil
}

// checkEndpoint says whether endpoint may be subscribed.
func (p *Pusher) checkEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || len(endpoint) > 1000 || u.User != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "https" && !(p.cfg.AllowPrivate && u.Scheme == "http") {
		return errors.New("not https")
	}
	return nil
}

// pushMsg is a push's plaintext: what the service worker shows.
type pushMsg struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Kind  string `json:"kind"`
	Tag   string `json:"tag,omitempty"`
}

// queueFor queues n's push to each of its account's subscriptions, its
// text in the account's language.
func (p *Pusher) queueFor(ctx context.Context, s *Service, n notify.Notice, args []any) {
	subs, err := s.st.PushSubscriptions(ctx, n.To)
	if err != nil {
		p.log.Warn("webpush: subscriptions", "user", n.To, "err", err)
		return
	}
	if len(subs) == 0 {
		return
	}
	lang := s.langOf(ctx, n.To)
	body, _ := json.Marshal(pushMsg{Title: s.cat.T(lang, "site.name"), Body: s.cat.T(lang, n.Key, args...), URL: n.URL, Kind: string(n.Kind)})
	for _, sub := range subs {
		select {
		case p.jobs <- pushJob{sub: sub, body: body}:
		default:
			p.log.Warn("webpush: queue full, push dropped", "user", n.To)
		}
	}
}

func (p *Pusher) work() {
	defer p.wg.Done()
	for {
		select {
		case j := <-p.jobs:
			p.send(j)
		case <-p.stop:
			for {
				select {
				case j := <-p.jobs:
					p.send(j)
				default:
					return
				}
			}
		}
	}
}

// pushTTL is how long a push service keeps a message for a browser that
// is off.
const pushTTL = 24 * time.Hour

func (p *Pusher) send(j pushJob) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	status, err := p.Send(ctx, j.sub, j.body)
	if err != nil {
		p.log.Warn("webpush: send", "user", j.sub.UserID, "err", err)
		return
	}
	if status == http.StatusNotFound || status == http.StatusGone {
		if p.cfg.Store != nil {
			if err := p.cfg.Store.DeletePushSubscription(ctx, 0, j.sub.Endpoint); err != nil {
				p.log.Warn("webpush: drop subscription", "err", err)
			}
		}
	}
}

// Send encrypts plaintext for sub and POSTs it to its endpoint with the
// VAPID authorization; it returns the push service's status.
func (p *Pusher) Send(ctx context.Context, sub store.PushSubscription, plaintext []byte) (int, error) {
	if err := p.checkEndpoint(sub.Endpoint); err != nil {
		return 0, fmt.Errorf("webpush: endpoint: %w", err)
	}
	body, err := Encrypt(plaintext, sub.P256DH, sub.Auth)
	if err != nil {
		return 0, err
	}
	auth, err := p.cfg.VAPID.Authorization(sub.Endpoint, time.Now().Add(12*time.Hour), rand.Reader)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.Endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Content-Encoding", "aes128gcm")
	req.Header.Set("TTL", fmt.Sprint(int(pushTTL.Seconds())))
	req.Header.Set("Urgency", "normal")
	req.Header.Set("Authorization", auth)
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	return resp.StatusCode, nil
}

// ---- the subscription's API ----

func (s *Web) apiPushKey(w http.ResponseWriter, r *http.Request) error {
	if s.cfg.Push == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "notify.err.push_off")
	}
	return site.WriteJSON(w, http.StatusOK, map[string]string{"key": s.cfg.Push.cfg.VAPID.PublicKey()})
}

// subscriptionJSON is the browser's PushSubscription.toJSON().
type subscriptionJSON struct {
	Endpoint       string `json:"endpoint"`
	ExpirationTime *int64 `json:"expirationTime"`
	Keys           struct {
		P256DH string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

func (s *Web) readSubscription(w http.ResponseWriter, r *http.Request) (subscriptionJSON, error) {
	var sub subscriptionJSON
	if s.cfg.Push == nil {
		return sub, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "notify.err.push_off")
	}
	if err := site.ReadJSON(w, r, &sub); err != nil {
		return sub, err
	}
	if err := s.cfg.Push.checkEndpoint(sub.Endpoint); err != nil {
		return sub, apierr.BadRequest(apierr.CodeBadRequest, "notify.err.subscription").WithDetail(err)
	}
	return sub, nil
}

func (s *Web) apiSubscribe(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	sub, err := s.readSubscription(w, r)
	if err != nil {
		return err
	}
	key, kerr := decode64(sub.Keys.P256DH)
	auth, aerr := decode64(sub.Keys.Auth)
	if kerr != nil || aerr != nil || len(key) != 65 || len(auth) != 16 || strings.ContainsAny(sub.Keys.P256DH+sub.Keys.Auth, " \n") {
		return apierr.BadRequest(apierr.CodeBadRequest, "notify.err.subscription")
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	if err := s.st.AddPushSubscription(ctx, store.PushSubscription{UserID: user, Endpoint: sub.Endpoint, P256DH: sub.Keys.P256DH, Auth: sub.Keys.Auth}); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Web) apiUnsubscribe(w http.ResponseWriter, r *http.Request) error {
	user, err := s.account(r)
	if err != nil {
		return err
	}
	sub, err := s.readSubscription(w, r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	if err := s.st.DeletePushSubscription(ctx, user, sub.Endpoint); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
