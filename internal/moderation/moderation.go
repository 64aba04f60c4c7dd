// Package moderation is fair play's people side: the reports of games and
// accounts (by players, and by the detectors: the fair-play model's flags
// and the sandbagging and boosting detector here), the moderator role, the
// moderators' queue sorted by evidence, their page per account, their
// actions and the audit log of every one, the appeals, and the consequences
// of a mark: the account's rated games voided, the points its opponents
// lost in them refunded (the store, in one transaction, never twice), its
// rated seeks meeting only marked accounts (internal/live's lobby asks
// Service.Marked), its chat refused (Service.Muted), and its events
// withdrawn.
//
// Invariants and threat model: a player is never shown his own evidence,
// any threshold, or what became of a report beyond "received"; every
// moderator route checks the role on the store's snapshot (refreshed every
// SnapshotEvery and after each action) and answers 403 otherwise; a
// stranger's reports are bounded per account and per address a day and
// collapse on the same target; the detectors' scans are bounded in accounts
// and games per scan.
package moderation

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// Store is what moderation keeps and reads: *store.Store.
type Store interface {
	AddModReport(ctx context.Context, r store.ModReport, lim store.ModReportLimits) (int64, bool, error)
	ModReportsOf(ctx context.Context, userID int64, limit int) ([]store.ModReport, error)
	ChatReportsOf(ctx context.Context, name string, limit int) ([]store.Report, error)
	ModQueue(ctx context.Context, limit int) ([]store.ModQueueEntry, error)
	ModFlagsOf(ctx context.Context, userID int64) (store.ModFlags, error)
	ModSnapshotNow(ctx context.Context) (store.ModSnapshot, error)
	ModActions(ctx context.Context, userID int64, limit int) ([]store.ModAction, error)
	ApplyModChange(ctx context.Context, c store.ModChange) (store.ModResult, error)
	ModRefundsAgainst(ctx context.Context, userID int64, limit int) ([]store.ModRefund, error)
	VoidedGames(ctx context.Context, userID int64) (map[string]bool, error)
	AddModNote(ctx context.Context, n store.ModNote) error
	ModNotes(ctx context.Context, userID int64, limit int) ([]store.ModNote, error)
	PendingWarning(ctx context.Context, userID int64) (store.ModWarning, bool, error)
	SeeWarning(ctx context.Context, userID, id int64) error
	AddAppeal(ctx context.Context, a store.ModAppeal) (int64, error)
	Appeals(ctx context.Context, userID int64, limit int) ([]store.ModAppeal, error)
	DecideAppeal(ctx context.Context, id, modID int64, decision, reason string) error
	FlaggedAccounts(ctx context.Context, since time.Time, limit int) ([]int64, error)
	JudgedAccounts(ctx context.Context, since time.Time, limit int) ([]store.JudgedAccount, error)
	RecentRatedPlayers(ctx context.Context, since time.Time, limit int) ([]int64, error)
	RatedGamesOf(ctx context.Context, userID int64, limit int) ([]store.Game, error)
	FairPlayByUser(ctx context.Context, userID int64, limit int) ([]game.FairPlay, error)
	FairPlayByGame(ctx context.Context, gameID string) ([]game.FairPlay, error)
	UserByName(ctx context.Context, name string) (store.User, error)
	UserByID(ctx context.Context, id int64) (store.User, error)
	Game(ctx context.Context, id string) (store.Game, error)
}

var _ Store = (*store.Store)(nil)

// The bounds and windows (docs/moderation.md).
const (
	// ReportsPerUser and ReportsPerAddr bound the reports one account and
	// one client address file in 24 hours.
	ReportsPerUser = 10
	ReportsPerAddr = 30
	// MaxNote is the longest note of a report, an action or an appeal.
	MaxNote = 1000
	// RefundWindow is how far back a mark voids the account's rated games
	// and refunds its opponents; RefundGames the most games it voids.
	RefundWindow = 30 * 24 * time.Hour
	RefundGames  = 100
	// EvidenceGames is how many of an account's judged games its queue
	// priority and its page combine.
	EvidenceGames = 50
	// QueueSize is the most accounts the queue shows.
	QueueSize = 100
	// ScanEvery is how often the detectors look at the new evidence and
	// the rated games just finished; ScanAccounts bounds the accounts of
	// one scan, DetectGames the games looked at per account.
	ScanEvery    = 5 * time.Minute
	ScanAccounts = 200
	DetectGames  = 30
	// SnapshotEvery is how often the marks and roles are read again (the
	// other nodes' actions reach this one within it).
	SnapshotEvery = 15 * time.Second
	// AutoWeight is the weight of a detector's report in the queue; a
	// player's weighs 1.
	AutoWeight = 2
)

// Reasons are the reasons a player may give; the detectors also file
// "boosting", and the forum (internal/forum) "forum": a report of a post,
// its note the post's address (/forum/post/ID) and the reporter's words.
var Reasons = []string{"cheating", "sandbagging", "abuse", "other"}

// Priority is the queue's order: the fair-play model's combined evidence
// of an account's judged games (fairplay.AccountEvidence.Evidence: the
// larger of the Stouffer z of their scores and of their strength tests, 0
// with none), plus the weight of its open reports.
func Priority(rows []game.FairPlay, reportWeight float64) float64 {
	return fairplay.Account(rows, fairplay.Default().Threshold).Evidence() + reportWeight
}

// Played is one of an account's finished rated games, as the sandbagging
// and boosting detector sees it: from the results, the ratings and the
// game's length, never from the engine.
type Played struct {
	GameID   string
	Opponent int64
	Result   float64 // 1 won, ½ drawn, 0 lost
	Plies    int
	Quick    bool // ended by resignation or on time
	Diff     int  // the account's rating change
}

// The detector's thresholds (docs/moderation.md).
const (
	// QuickPlies: a loss by resignation or on time within this many
	// plies is a thrown game.
	QuickPlies = 20
	// SandbagLosses thrown losses among an account's last DetectGames,
	// at least half its losses, make it a sandbagger.
	SandbagLosses = 5
	// BoostGames games against one opponent, all but one won, with
	// BoostThrown of the opponent's losses thrown, make a pair of a
	// booster (the winner) and a feeder (the loser).
	BoostGames  = 4
	BoostThrown = 3
)

func thrown(p Played) bool { return p.Result == 0 && p.Quick && p.Plies <= QuickPlies }

// Sandbagging reports whether an account's games look like losing on
// purpose: at least SandbagLosses thrown losses, and at least half its
// losses thrown.
func Sandbagging(games []Played) bool {
	var losses, thrownN int
	for _, g := range games {
		if g.Result == 0 {
			losses++
		}
		if thrown(g) {
			thrownN++
		}
	}
	return thrownN >= SandbagLosses && 2*thrownN >= losses
}

// Feeders returns the opponents that look like feeding this account
// points: at least BoostGames games between them, the account losing at
// most one, and at least BoostThrown of the opponent's losses thrown (seen
// from the account: its wins in few plies by the opponent's resignation
// or time).
func Feeders(games []Played) []int64 {
	type pair struct{ n, lost, thrown int }
	by := map[int64]*pair{}
	var order []int64
	for _, g := range games {
		if g.Opponent == 0 {
			continue
		}
		p, ok := by[g.Opponent]
		if !ok {
			p = &pair{}
			by[g.Opponent] = p
			order = append(order, g.Opponent)
		}
		p.n++
		if g.Result < 1 {
			p.lost++
		}
		if g.Result == 1 && g.Quick && g.Plies <= QuickPlies {
			p.thrown++
		}
	}
	var out []int64
	for _, o := range order {
		if p := by[o]; p.n >= BoostGames && p.lost <= 1 && p.thrown >= BoostThrown {
			out = append(out, o)
		}
	}
	return out
}

// PlayedOf returns the detector's view of an account's games.
func PlayedOf(userID int64, games []store.Game) []Played {
	out := make([]Played, 0, len(games))
	for _, g := range games {
		side := toguz.White
		if g.Players[1].UserID == userID {
			side = toguz.Black
		}
		p := Played{GameID: g.ID, Opponent: g.Players[1-side].UserID, Plies: g.Plies, Diff: g.RatingDiff[side],
			Quick: g.Termination == toguz.ByResignation || g.Termination == toguz.ByTime, Result: 0.5}
		switch {
		case g.Result == toguz.WhiteWins && side == toguz.White, g.Result == toguz.BlackWins && side == toguz.Black:
			p.Result = 1
		case g.Result == toguz.WhiteWins, g.Result == toguz.BlackWins:
			p.Result = 0
		}
		out = append(out, p)
	}
	return out
}

// Events is what a mark asks of the events: withdraw the account from
// those it is entered in and not yet finished (nil: none).
type Events func(ctx context.Context, userID int64) error

// Config is what a Service is built from.
type Config struct {
	Store  Store
	Events Events
	Logger *slog.Logger
	Now    func() time.Time // default time.Now
}

// Service holds the snapshot of the marks and roles and runs the
// detectors; its Web answers the pages.
type Service struct {
	cfg Config
	log *slog.Logger

	mu   sync.RWMutex
	snap store.ModSnapshot
}

// New returns a service with the store's snapshot read.
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{cfg: cfg, log: cfg.Logger}
	if err := s.Refresh(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Refresh reads the snapshot of marks, roles and warnings again.
func (s *Service) Refresh(ctx context.Context) error {
	snap, err := s.cfg.Store.ModSnapshotNow(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.snap = snap
	s.mu.Unlock()
	return nil
}

func (s *Service) flags(userID int64) store.ModFlags {
	if s == nil || userID == 0 {
		return store.ModFlags{}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap.Flags[userID]
}

// IsModerator reports whether the account has the moderator role.
func (s *Service) IsModerator(userID int64) bool {
	if s == nil || userID == 0 {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap.Moderators[userID]
}

// Marked reports whether the account is marked as an engine user or a
// booster: its rated seeks meet only marked accounts.
func (s *Service) Marked(userID int64) bool { return s.flags(userID).Marked() }

// Muted reports whether the chat refuses the seat's messages (a
// game.Seat.ID: "u:<id>" for an account).
func (s *Service) Muted(seatID string) bool {
	var id int64
	if len(seatID) < 3 || seatID[:2] != "u:" {
		return false
	}
	for _, c := range seatID[2:] {
		if c < '0' || c > '9' {
			return false
		}
		id = id*10 + int64(c-'0')
	}
	return s.flags(id).Muted
}

// Closed reports whether a moderator closed the account.
func (s *Service) Closed(userID int64) bool { return s.flags(userID).Closed }

// Warned reports whether the account has a warning it has not read.
func (s *Service) Warned(userID int64) bool {
	if s == nil || userID == 0 {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.snap.Warned[userID]
}

// Run refreshes the snapshot every SnapshotEvery and scans with the
// detectors every ScanEvery until ctx ends.
func (s *Service) Run(ctx context.Context) {
	snap := time.NewTicker(SnapshotEvery)
	defer snap.Stop()
	scan := time.NewTicker(ScanEvery)
	defer scan.Stop()
	since := s.cfg.Now().Add(-RefundWindow)
	for {
		select {
		case <-ctx.Done():
			return
		case <-snap.C:
			if err := s.Refresh(ctx); err != nil {
				s.log.Warn("moderation snapshot", "err", err)
			}
		case <-scan.C:
			now := s.cfg.Now()
			if err := s.Scan(ctx, since); err != nil {
				s.log.Warn("moderation scan", "err", err)
				continue
			}
			since = now.Add(-ScanEvery) // overlap: a collapsed report costs nothing
		}
	}
}

// Scan files the detectors' reports: one for each account with flagged
// fair-play evidence since since (and since it was last dealt with), or
// whose rated games since it was last dealt with are flagged together
// (fairplay.Account), and
// for each account that finished rated games since since whose results
// look like sandbagging or boosting. At most ScanAccounts accounts of each
// kind, DetectGames games each.
func (s *Service) Scan(ctx context.Context, since time.Time) error {
	flagged, err := s.cfg.Store.FlaggedAccounts(ctx, since, ScanAccounts)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range flagged {
		errs = append(errs, s.autoReport(ctx, id, "cheating", "fair-play model", ""))
	}
	// An account's games may each stay under the threshold while their
	// combined evidence is over it (a weaker engine on every move): the
	// accounts judged since since are checked on their rated games since
	// a moderator last dealt with them.
	judged, err := s.cfg.Store.JudgedAccounts(ctx, since, ScanAccounts)
	if err != nil {
		errs = append(errs, err)
	}
	th := fairplay.Default().Threshold
	for _, j := range judged {
		if slices.Contains(flagged, j.UserID) {
			continue
		}
		rows, err := s.cfg.Store.FairPlayByUser(ctx, j.UserID, EvidenceGames)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rows = slices.DeleteFunc(rows, func(f game.FairPlay) bool { return !f.Rated || !f.Computed.After(j.Resolved) })
		if fairplay.Account(rows, th).Flag {
			errs = append(errs, s.autoReport(ctx, j.UserID, "cheating", "fair-play model: the account's games together", ""))
		}
	}
	players, err := s.cfg.Store.RecentRatedPlayers(ctx, since, ScanAccounts)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, id := range players {
		gs, err := s.cfg.Store.RatedGamesOf(ctx, id, DetectGames)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		played := PlayedOf(id, gs)
		if Sandbagging(played) {
			errs = append(errs, s.autoReport(ctx, id, "sandbagging", "thrown losses", ""))
		}
		for _, f := range Feeders(played) {
			errs = append(errs, s.autoReport(ctx, id, "boosting", "points fed by another account", ""))
			errs = append(errs, s.autoReport(ctx, f, "sandbagging", "losses fed to another account", ""))
		}
	}
	return errors.Join(errs...)
}

func (s *Service) autoReport(ctx context.Context, target int64, reason, note, gameID string) error {
	_, _, err := s.cfg.Store.AddModReport(ctx, store.ModReport{TargetID: target, Reason: reason, Note: note, GameID: gameID, Weight: AutoWeight}, store.ModReportLimits{})
	return err
}

// GameEvidence returns the fair-play evidence of a game's sides: for the
// arbiters' console of an event (internal/events), never for the players.
func (s *Service) GameEvidence(ctx context.Context, gameID string) ([]game.FairPlay, error) {
	return s.cfg.Store.FairPlayByGame(ctx, gameID)
}
