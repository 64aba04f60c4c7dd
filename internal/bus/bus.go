// Package bus is the message bus between the server's nodes: NATS, through
// github.com/nats-io/nats.go, behind the small seam the live hub needs
// (live.Bus). Embedded runs a NATS server in-process
// (github.com/nats-io/nats-server/v2) for tests and for a single machine.
package bus

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Bus is one connection to NATS.
type Bus struct {
	nc  *nats.Conn
	log *slog.Logger
	obs Observer
	// reconnected is called after each reconnection (OnReconnect).
	reconnected atomic.Pointer[func()]
}

// OnReconnect sets f to be called after each reconnection to NATS: what
// was published to this connection meanwhile is lost, and the caller may
// want to resync (live's hub does).
func (b *Bus) OnReconnect(f func()) { b.reconnected.Store(&f) }

// Observer is told how long each publish, request and handled message
// took (internal/metrics' *Metrics is one: toguz_bus_seconds).
type Observer interface {
	ObserveBus(op string, d time.Duration)
}

// Observe makes b tell o how long its operations take; call it before
// the first.
func (b *Bus) Observe(o Observer) { b.obs = o }

func (b *Bus) observe(op string, start time.Time) {
	if b.obs != nil {
		b.obs.ObserveBus(op, time.Since(start))
	}
}

// Connect connects to the NATS server at url (nats://host:port), as name
// (shown by the server's monitoring). The connection reconnects by itself
// for as long as it is open; messages published meanwhile are buffered.
func Connect(url, name string, log *slog.Logger) (*Bus, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bus{log: log}
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
		nats.ErrorHandler(func(_ *nats.Conn, s *nats.Subscription, err error) {
			subj := ""
			if s != nil {
				subj = s.Subject
			}
			log.Error("bus", "subject", subj, "err", err)
		}),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil { // nil: closed by Close
				log.Warn("bus: disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			log.Info("bus: reconnected", "url", nc.ConnectedUrl())
			if f := b.reconnected.Load(); f != nil {
				go (*f)()
			}
		}))
	if err != nil {
		return nil, fmt.Errorf("bus: connect %s: %w", url, err)
	}
	b.nc = nc
	return b, nil
}

// Publish sends data on subject.
func (b *Bus) Publish(subject string, data []byte) error {
	defer b.observe("publish", time.Now())
	if err := b.nc.Publish(subject, data); err != nil {
		return fmt.Errorf("bus: publish %s: %w", subject, err)
	}
	return nil
}

// Request sends data on subject and waits for the first reply, until ctx
// ends.
func (b *Bus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	defer b.observe("request", time.Now())
	m, err := b.nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		return nil, fmt.Errorf("bus: request %s: %w", subject, err)
	}
	return m.Data, nil
}

// pending bounds what one subscription queues for its handler: past it
// NATS drops messages (and the error handler logs it), so it is large: a
// dropped move message would leave a socket waiting for its resync.
const (
	pendingMsgs  = 1 << 20
	pendingBytes = 256 << 20
)

// Subscribe calls f for each message on subject, one at a time, in the
// order they arrived; reply answers a request (it does nothing for a
// plain message).
func (b *Bus) Subscribe(subject string, f func(subject string, data []byte, reply func([]byte))) (func(), error) {
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		defer b.observe("handle", time.Now())
		f(m.Subject, m.Data, func(d []byte) {
			if m.Reply == "" {
				return
			}
			if err := m.Respond(d); err != nil {
				b.log.Error("bus: reply", "subject", m.Subject, "err", err)
			}
		})
	})
	if err != nil {
		return nil, fmt.Errorf("bus: subscribe %s: %w", subject, err)
	}
	if err := sub.SetPendingLimits(pendingMsgs, pendingBytes); err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("bus: subscribe %s: %w", subject, err)
	}
	return func() { sub.Unsubscribe() }, nil
}

// QueueSubscribe is Subscribe within the queue group queue: each message
// goes to one subscriber of the group (the review workers share their
// jobs so).
func (b *Bus) QueueSubscribe(subject, queue string, f func(subject string, data []byte, reply func([]byte))) (func(), error) {
	sub, err := b.nc.QueueSubscribe(subject, queue, func(m *nats.Msg) {
		f(m.Subject, m.Data, func(d []byte) {
			if err := m.Respond(d); err != nil {
				b.log.Error("bus: reply", "subject", m.Subject, "err", err)
			}
		})
	})
	if err != nil {
		return nil, fmt.Errorf("bus: subscribe %s (%s): %w", subject, queue, err)
	}
	return func() { sub.Unsubscribe() }, nil
}

// NoResponders reports whether err is a request that nobody subscribes to.
func NoResponders(err error) bool { return errors.Is(err, nats.ErrNoResponders) }

// Flush waits until the server has received everything published so far.
func (b *Bus) Flush(ctx context.Context) error { return b.nc.FlushWithContext(ctx) }

// Connected reports whether the connection to NATS is up (it reconnects
// by itself; meanwhile publishes are buffered and requests fail).
func (b *Bus) Connected() bool { return b.nc.IsConnected() }

// Close closes the connection, after sending what was published (a
// stopping node's goodbye; for a second at most).
func (b *Bus) Close() {
	if b.nc.IsConnected() {
		b.nc.FlushTimeout(time.Second)
	}
	b.nc.Close()
}

// Embedded is a NATS server running in this process.
type Embedded struct {
	s *server.Server
}

// StartEmbedded starts a NATS server listening on addr (host:port; port 0
// picks a free one) and waits until it accepts connections.
func StartEmbedded(addr string) (*Embedded, error) {
	return StartClustered(addr, ClusterConfig{})
}

// ClusterConfig makes an embedded server one of a NATS cluster: it
// listens for the other servers' routes on Addr (host:port) and connects
// to Routes (nats://host:port of the others' Addr; its own may be among
// them). Every server of the cluster has the same Name. A client (a node's
// Connect with the servers' client URLs, comma-separated) fails over to
// another server when its own stops. The zero ClusterConfig: no cluster.
type ClusterConfig struct {
	Name   string
	Addr   string
	Routes []string
}

// StartClustered is StartEmbedded, one server of the cluster c.
func StartClustered(addr string, c ClusterConfig) (*Embedded, error) {
	host, p, err := hostPort(addr)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{Host: host, Port: p, NoSigs: true, NoLog: true, MaxPayload: 8 << 20}
	if c.Addr != "" {
		ch, cp, err := hostPort(c.Addr)
		if err != nil {
			return nil, err
		}
		opts.Cluster = server.ClusterOpts{Name: cmp.Or(c.Name, "toguz"), Host: ch, Port: cp}
		if len(c.Routes) > 0 {
			opts.Routes = server.RoutesFromStr(strings.Join(c.Routes, ","))
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("bus: embedded server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, errors.New("bus: embedded server did not start")
	}
	return &Embedded{s: s}, nil
}

// hostPort splits an address (port 0: a free one).
func hostPort(addr string) (string, int, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("bus: embedded server address %q: %w", addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return "", 0, fmt.Errorf("bus: embedded server port %q: %w", port, err)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	return host, p, nil
}

// ClusterAddr returns the address the server takes routes on ("" when
// it is in no cluster).
func (e *Embedded) ClusterAddr() string {
	if a := e.s.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

// Routes returns how many other servers of its cluster it is connected
// to.
func (e *Embedded) Routes() int { return e.s.NumRoutes() }

// URL returns the address clients connect to (nats://host:port).
func (e *Embedded) URL() string { return e.s.ClientURL() }

// Close stops the server.
func (e *Embedded) Close() {
	e.s.Shutdown()
	e.s.WaitForShutdown()
}
