package sections

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// Store keeps the championships; *store.Store satisfies it.
type Store interface {
	SaveChampionship(ctx context.Context, c *store.Championship) error
	Championship(ctx context.Context, id string) (store.Championship, error)
	Championships(ctx context.Context, limit int) ([]store.Championship, error)
}

// Config is what a Desk is built from.
type Config struct {
	Store    Store
	Register federation.Register
	// Norms computes the ranks' norms the players earned (the register's
	// service); nil: the championships print no norms.
	Norms Norms
	// Swiss pairs a Swiss section's round (the Dutch pairer); nil: only
	// round robins can be paired.
	Swiss tournament.Pairer
	// User finds an account by name (the arbiters a championship's
	// creator names); nil: none can be named.
	User   func(ctx context.Context, name string) (int64, error)
	Now    func() time.Time // nil: time.Now
	Logger *slog.Logger
}

// Desk runs the championships: each change is made on a fresh copy and
// written whole, and only then seen.
type Desk struct {
	cfg Config
	// mu makes one process's changes take turns: a change reads, changes
	// and writes under it. Another node's write in between is caught by
	// the store's version and the change is made again on the new copy.
	mu sync.Mutex
	// idx keeps the summaries the register's pages list, by id
	// (index.go), under idxMu.
	idxMu sync.Mutex
	idx   map[string]*indexed
}

// New returns a Desk.
func New(cfg Config) *Desk {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Desk{cfg: cfg}
}

// Summary is a championship in the list.
type Summary struct {
	ID, Name string
	Status   Status
	Created  time.Time
}

// List returns the newest championships.
func (d *Desk) List(ctx context.Context, limit int) ([]Summary, error) {
	rows, err := d.cfg.Store.Championships(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(rows))
	for i, r := range rows {
		out[i] = Summary{ID: r.ID, Name: r.Name, Status: Status(r.Status), Created: r.Created}
	}
	return out, nil
}

// Get returns a copy of championship id.
func (d *Desk) Get(ctx context.Context, id string) (*Championship, error) {
	row, err := d.cfg.Store.Championship(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, err
	}
	var c Championship
	if err := json.Unmarshal(row.Doc, &c); err != nil {
		return nil, fmt.Errorf("sections: championship %s: %w", id, err)
	}
	c.ID, c.version = row.ID, row.Version
	return &c, nil
}

func (d *Desk) save(ctx context.Context, c *Championship) error {
	doc, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("sections: championship %s: %w", c.ID, err)
	}
	row := store.Championship{ID: c.ID, Creator: c.Creator, Name: c.Settings.Name, Status: string(c.Status()),
		Version: c.version, Doc: doc, Created: c.Created, Updated: d.cfg.Now()}
	if err := d.cfg.Store.SaveChampionship(ctx, &row); err != nil {
		return err
	}
	c.version = row.Version
	return nil
}

// Create makes a championship of creator's with its sections.
func (d *Desk) Create(ctx context.Context, creator int64, s Settings, specs []Spec) (string, error) {
	if creator == 0 {
		return "", forbidden()
	}
	if err := Check(&s, specs); err != nil {
		return "", err
	}
	// Where the register can say, a federation it lacks is refused now
	// rather than when the report is sent at the end.
	if d.cfg.Norms != nil {
		if _, err := d.cfg.Norms.Federation(ctx, s.Federation); errors.Is(err, federation.ErrNoFederation) {
			return "", bad("sections.err_no_federation", s.Federation)
		} else if err != nil {
			return "", err
		}
	}
	open := 0
	list, err := d.cfg.Store.Championships(ctx, 200)
	if err != nil {
		return "", err
	}
	for _, r := range list {
		if r.Creator == creator && r.Status != string(Finished) {
			open++
		}
	}
	if open >= MaxOpenPerUser {
		return "", conflict("sections.err_too_many", MaxOpenPerUser)
	}
	c := &Championship{ID: newID(), Creator: creator, Settings: s, Players: map[string]federation.Player{}, Created: d.cfg.Now().UTC()}
	for _, sp := range specs {
		c.Sections = append(c.Sections, newSection(s, sp))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.save(ctx, c); err != nil {
		return "", err
	}
	return c.ID, nil
}

func newID() string {
	const letters = "abcdefghijkmnopqrstuvwxyz23456789"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b)
}

// change runs fn on a fresh copy of championship id as user who (an
// arbiter) and writes the copy; a write another node made in between
// makes it run again on the newer copy.
func (d *Desk) change(ctx context.Context, id string, who int64, fn func(c *Championship) error) (*Championship, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for try := 0; ; try++ {
		c, err := d.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if !c.IsArbiter(who) {
			return nil, forbidden()
		}
		if err := fn(c); err != nil {
			return nil, err
		}
		err = d.save(ctx, c)
		if errors.Is(err, store.ErrConflict) && try < 3 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// MaxBulk bounds the ids of one entry request.
const MaxBulk = 400

// Entered is the outcome of one federation id of an entry request.
type Entered struct {
	ID       string   `json:"id"`
	Sections []string `json:"sections,omitempty"`
	Error    *Error   `json:"-"`
}

// Enter enters the register's players of ids in the sections keys (none:
// each discipline's first section they are eligible for). Each id is
// taken or refused on its own; the refusals are in the answer.
func (d *Desk) Enter(ctx context.Context, id string, who int64, ids []string, keys []string) ([]Entered, error) {
	if len(ids) > MaxBulk {
		return nil, bad("sections.err_bulk", MaxBulk)
	}
	// The register is asked before the championship is locked.
	found := map[string]federation.Player{}
	out := make([]Entered, len(ids))
	for i, fid := range ids {
		fid = strings.TrimSpace(fid)
		out[i].ID = fid
		if _, dup := found[fid]; dup {
			continue
		}
		p, err := d.cfg.Register.Player(ctx, fid)
		if errors.Is(err, federation.ErrNoPlayer) {
			out[i].Error = bad("sections.err_no_player", fid)
			continue
		}
		if err != nil {
			return nil, err
		}
		found[fid] = p
	}
	_, err := d.change(ctx, id, who, func(c *Championship) error {
		for i := range out {
			p, ok := found[out[i].ID]
			if !ok || out[i].Error != nil {
				continue
			}
			secs, err := c.Enter(p, keys)
			var e *Error
			if errors.As(err, &e) {
				out[i].Error = e
				continue
			}
			if err != nil {
				return err
			}
			out[i].Sections = secs
		}
		return nil
	})
	return out, err
}

// SetArbiters names the arbiters besides the creator, by account name;
// only the creator may.
func (d *Desk) SetArbiters(ctx context.Context, id string, who int64, names []string) error {
	if len(names) > MaxArbiters {
		return bad("sections.err_arbiters", MaxArbiters)
	}
	var ids []int64
	for _, n := range names {
		if d.cfg.User == nil {
			return bad("sections.err_arbiter", n)
		}
		uid, err := d.cfg.User(ctx, n)
		if err != nil || uid == 0 {
			return bad("sections.err_arbiter", n)
		}
		if uid != who && !slices.Contains(ids, uid) {
			ids = append(ids, uid)
		}
	}
	_, err := d.change(ctx, id, who, func(c *Championship) error {
		if c.Creator != who {
			return forbidden()
		}
		c.Arbiters, c.ArbiterNames = ids, names
		return nil
	})
	return err
}

// Withdraw takes player fid out of section key's rounds to come.
func (d *Desk) Withdraw(ctx context.Context, id string, who int64, key, fid string) error {
	_, err := d.change(ctx, id, who, func(c *Championship) error { return c.Withdraw(key, fid) })
	return err
}

// Bye records a bye player fid asked for in advance in round r of key.
func (d *Desk) Bye(ctx context.Context, id string, who int64, key, fid string, r int, half bool) error {
	_, err := d.change(ctx, id, who, func(c *Championship) error { return c.RequestBye(key, fid, r, half) })
	return err
}

// Paired is a section's round just paired.
type Paired struct {
	Section string `json:"section"`
	Round   int    `json:"round"`
}

// Pair pairs the next round of every section that is ready (key "") or
// of section key alone.
func (d *Desk) Pair(ctx context.Context, id string, who int64, key string) ([]Paired, error) {
	var out []Paired
	_, err := d.change(ctx, id, who, func(c *Championship) error {
		out = out[:0]
		for _, s := range c.Sections {
			if key != "" && s.Key != key || key == "" && !s.Ready() {
				continue
			}
			if err := c.formTeams(s); err != nil {
				return err
			}
			r, err := s.Pair(d.cfg.Swiss)
			if err != nil {
				return err
			}
			out = append(out, Paired{s.Key, r})
		}
		if len(out) == 0 {
			return conflict("sections.err_nothing_to_pair")
		}
		return nil
	})
	return out, err
}

// Results enters the results of round r of section key, by board; a
// changed result is logged. It returns how many results changed.
func (d *Desk) Results(ctx context.Context, id string, who int64, whoName, key string, r int, results map[int]string) (int, error) {
	n := 0
	_, err := d.change(ctx, id, who, func(c *Championship) error {
		n = 0
		now := d.cfg.Now()
		for b, res := range results {
			if strings.TrimSpace(res) == "" {
				continue
			}
			ch, err := c.SetResult(key, r, b, res, who, whoName, now)
			if err != nil {
				return err
			}
			if ch {
				n++
			}
		}
		return nil
	})
	return n, err
}

// Submit sends discipline disc's rated games to the federation as a
// report, once all its sections have finished; a report sent again
// (after a correction) replaces it in the register's next list.
func (d *Desk) Submit(ctx context.Context, id string, who int64, disc federation.Discipline) (federation.Report, error) {
	c, err := d.Get(ctx, id)
	if err != nil {
		return federation.Report{}, err
	}
	if !c.IsArbiter(who) {
		return federation.Report{}, forbidden()
	}
	if !c.DisciplineFinished(disc) {
		return federation.Report{}, conflict("sections.err_not_finished", string(disc))
	}
	rep := c.Report(disc, who, d.cfg.Now())
	if err := d.cfg.Register.Submit(ctx, rep); err != nil {
		return rep, fmt.Errorf("sections: report of %s %s: %w", id, disc, err)
	}
	_, err = d.change(ctx, id, who, func(c *Championship) error {
		if c.Submitted == nil {
			c.Submitted = map[federation.Discipline]time.Time{}
		}
		c.Submitted[disc] = d.cfg.Now().UTC()
		return nil
	})
	return rep, err
}
