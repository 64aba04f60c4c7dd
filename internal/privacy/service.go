package privacy

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Config is what a Service is built from.
type Config struct {
	// Store keeps the settings, blocks, closings and exports (required).
	Store Store
	// Kit is the site's (pages, identity, errors).
	Kit site.Kit
	// CheckPassword checks an account's password through auth's login
	// limits; nil: no password is right (kid mode cannot be switched off,
	// no account closed).
	CheckPassword func(ctx context.Context, name, password, ip string) error
	// Leave withdraws a closing account from what runs in memory: its
	// seeks and challenges, the events it is in (nil: nothing).
	Leave func(ctx context.Context, userID int64, name string)
	// ClearSession clears the browser's session cookie (a closed
	// account's page is shown as to nobody).
	ClearSession func(w http.ResponseWriter)
	// Record returns a stored game as a record (the archive's export).
	Record func(ctx context.Context, id string) (*toguz.Game, error)
	// ExportsPerDay bounds the data downloads of one account in 24 hours
	// (0: DefaultExportsPerDay).
	ExportsPerDay int
	// Rand makes the closed accounts' neutral names (nil: crypto/rand).
	Rand io.Reader
}

// DefaultExportsPerDay is how many times an account may download its data
// in 24 hours.
const DefaultExportsPerDay = 5

// Service answers the privacy questions of the site and serves the
// account's privacy, kid mode, closing and export pages.
type Service struct {
	st   Store
	kit  site.Kit
	cfg  Config
	log  *slog.Logger
	rand io.Reader

	mu        sync.Mutex
	exporting map[int64]bool // the accounts whose export is being written; guarded by mu
}

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.ExportsPerDay == 0 {
		cfg.ExportsPerDay = DefaultExportsPerDay
	}
	r := cfg.Rand
	if r == nil {
		r = rand.Reader
	}
	log := slog.New(slog.DiscardHandler)
	if cfg.Kit != nil {
		log = cfg.Kit.Logger()
	}
	return &Service{st: cfg.Store, kit: cfg.Kit, cfg: cfg, log: log, rand: r, exporting: map[int64]bool{}}
}

// NeutralPrefix starts the name a closed account's games show; auth
// refuses it to new accounts.
const NeutralPrefix = auth.ClosedPrefix

// neutralName returns a fresh neutral name: the prefix and 8 random
// letters and digits.
func (s *Service) neutralName() (string, error) {
	b := make([]byte, 5)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("privacy: random: %w", err)
	}
	return NeutralPrefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)), nil
}

// close closes account id named name: it leaves what runs in memory,
// then the store closes it (sessions, tokens, blocks, studies, the
// games' neutral name).
func (s *Service) close(ctx context.Context, id int64, name string) (string, error) {
	if s.cfg.Leave != nil {
		s.cfg.Leave(ctx, id, name)
	}
	for range 5 {
		neutral, err := s.neutralName()
		if err != nil {
			return "", err
		}
		// An old account may hold the name (the prefix was free once).
		if _, err := s.st.UserByName(ctx, neutral); err == nil {
			continue
		}
		err = s.st.CloseAccount(ctx, id, neutral)
		if errors.Is(err, store.ErrConflict) {
			if _, closed, cerr := s.Closed(ctx, id); cerr == nil && closed {
				return "", err
			}
			continue // the neutral name was drawn before
		}
		if err != nil {
			return "", err
		}
		s.log.Info("account closed", "user", id, "neutral", neutral)
		return neutral, nil
	}
	return "", errors.New("privacy: no free neutral name")
}
