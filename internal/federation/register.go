package federation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/store"
)

// Level is a federation's place in the world of the game.
type Level string

// The levels of federations.
const (
	World    Level = "world"
	National Level = "national"
	Regional Level = "regional"
)

// Federation is a body of the register with its configuration.
type Federation struct {
	Code    string
	Level   Level
	Parent  string            // the code of the body above, "" none
	Names   map[string]string // language → name
	Founded int
	Ranks   Ranks
	Rules   Rules
}

// Name returns the federation's name in lang (kk-Latn transliterated,
// else English, else its code).
func (f Federation) Name(lang string) string {
	if n := f.Names[lang]; n != "" {
		return n
	}
	if lang == "kk-Latn" && f.Names["kk"] != "" {
		return i18n.Latin(f.Names["kk"])
	}
	if n := f.Names["en"]; n != "" {
		return n
	}
	return f.Code
}

// Store keeps the register (*store.Store; its federation.go).
type Store interface {
	PutFederation(ctx context.Context, f store.Federation) error
	SetFederationConfig(ctx context.Context, code, ranks, rules string) error
	FederationByCode(ctx context.Context, code string) (store.Federation, error)
	Federations(ctx context.Context) ([]store.Federation, error)
	SetFedOfficer(ctx context.Context, code string, userID int64, on bool) error
	FedOfficers(ctx context.Context, code string) ([]store.User, error)
	FedOffices(ctx context.Context, userID int64) ([]string, error)
	PutFedClub(ctx context.Context, c store.FedClub) error
	FedClubs(ctx context.Context, code string) ([]store.FedClub, error)
	PutFedPlayer(ctx context.Context, p store.FedPlayer) error
	FedPlayerByID(ctx context.Context, id string) (store.FedPlayer, error)
	FedPlayersByIDs(ctx context.Context, ids []string) ([]store.FedPlayer, error)
	FedPlayerOfUser(ctx context.Context, userID int64) (store.FedPlayer, error)
	FedPlayers(ctx context.Context, f store.FedPlayerFilter) ([]store.FedPlayer, int, error)
	AwardFedRank(ctx context.Context, r store.FedRank) error
	RevokeFedRank(ctx context.Context, player, rank string) error
	FedRanks(ctx context.Context, federation string, players ...string) ([]store.FedRank, error)
	ClaimFedPlayer(ctx context.Context, player string, userID int64) error
	FedClaims(ctx context.Context, federation string) ([]store.FedClaim, error)
	FedClaimsOf(ctx context.Context, userID int64) (int, error)
	DecideFedClaim(ctx context.Context, player string, userID int64, approve bool) error
	SubmitFedReport(ctx context.Context, r store.FedReport) error
	FedReports(ctx context.Context, federation, discipline, from, to string) ([]store.FedReport, error)
	PublishFedList(ctx context.Context, l store.FedList, players []store.FedPlayer, entries []store.FedListEntry) error
	FedLists(ctx context.Context, federation, discipline string) ([]store.FedList, error)
	FedListEntries(ctx context.Context, federation, discipline, day string) ([]store.FedListEntry, error)
	FedPlayerEntries(ctx context.Context, player string) ([]store.FedListEntry, error)
}

var _ Store = (*store.Store)(nil)

// Service is the store-backed register: it implements Register.
type Service struct {
	st  Store
	now func() time.Time
}

var _ Register = (*Service)(nil)

// New returns the register on st; now gives the time (nil: time.Now).
func New(st Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{st: st, now: now}
}

// Errors callers test.
var (
	ErrNoFederation = errors.New("federation: no such federation")
	ErrInvalid      = errors.New("federation: invalid")
	ErrPublished    = errors.New("federation: that list is published already")
)

var (
	fedCode  = regexp.MustCompile(`^[A-Z][A-Z0-9-]{1,15}$`)
	playerID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,23}$`)
)

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

// PutFederation creates or updates a federation (not its configuration:
// Configure).
func (s *Service) PutFederation(ctx context.Context, f Federation) error {
	switch {
	case !fedCode.MatchString(f.Code):
		return invalid("federation code %q: 2 to 16 capital letters, digits or -", f.Code)
	case f.Level != World && f.Level != National && f.Level != Regional:
		return invalid("federation %s: level %q is not world, national or regional", f.Code, f.Level)
	case f.Names["en"] == "":
		return invalid("federation %s: a name in English is needed", f.Code)
	case f.Parent == f.Code:
		return invalid("federation %s: its own parent", f.Code)
	}
	if f.Parent != "" {
		if _, err := s.Federation(ctx, f.Parent); err != nil {
			return err
		}
	}
	names, _ := json.Marshal(f.Names)
	return s.st.PutFederation(ctx, store.Federation{Code: f.Code, Level: string(f.Level), Parent: f.Parent,
		Names: string(names), Founded: f.Founded})
}

// Configure replaces a federation's ranks and rating rules.
func (s *Service) Configure(ctx context.Context, code string, ranks Ranks, rules Rules) error {
	if err := ranks.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	rk, _ := json.Marshal(ranks)
	rl, _ := json.Marshal(rules)
	err := s.st.SetFederationConfig(ctx, code, string(rk), string(rl))
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %q", ErrNoFederation, code)
	}
	return err
}

func fromStoreFed(f store.Federation) (Federation, error) {
	out := Federation{Code: f.Code, Level: Level(f.Level), Parent: f.Parent, Founded: f.Founded}
	if err := json.Unmarshal([]byte(f.Names), &out.Names); err != nil {
		return out, fmt.Errorf("federation %s: names: %w", f.Code, err)
	}
	var err error
	if out.Ranks, err = ParseRanks(f.Ranks, DefaultRanks(out.Level)); err != nil {
		return out, err
	}
	out.Rules, err = ParseRules(f.Rules)
	return out, err
}

// Federation returns a federation, or ErrNoFederation.
func (s *Service) Federation(ctx context.Context, code string) (Federation, error) {
	f, err := s.st.FederationByCode(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		return Federation{}, fmt.Errorf("%w: %q", ErrNoFederation, code)
	}
	if err != nil {
		return Federation{}, err
	}
	return fromStoreFed(f)
}

// Federations returns every federation: the world's first, then by code.
func (s *Service) Federations(ctx context.Context) ([]Federation, error) {
	rows, err := s.st.Federations(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Federation, 0, len(rows))
	for _, r := range rows {
		f, err := fromStoreFed(r)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	order := map[Level]int{World: 0, National: 1, Regional: 2}
	slices.SortStableFunc(out, func(a, b Federation) int { return order[a.Level] - order[b.Level] })
	return out, nil
}

// SetOfficer grants or revokes account userID's office in federation code.
func (s *Service) SetOfficer(ctx context.Context, code string, userID int64, on bool) error {
	if _, err := s.Federation(ctx, code); err != nil {
		return err
	}
	return s.st.SetFedOfficer(ctx, code, userID, on)
}

// IsOfficer reports whether account userID is an officer of federation
// code.
func (s *Service) IsOfficer(ctx context.Context, code string, userID int64) (bool, error) {
	if userID == 0 {
		return false, nil
	}
	offices, err := s.st.FedOffices(ctx, userID)
	return slices.Contains(offices, code), err
}

// PutClub creates or renames a club of a federation.
func (s *Service) PutClub(ctx context.Context, c store.FedClub) error {
	if !playerID.MatchString(c.Code) || strings.TrimSpace(c.Name) == "" || utf8.RuneCountInString(c.Name) > 120 {
		return invalid("club %q: a code of letters, digits or - and a name up to 120 letters", c.Code)
	}
	err := s.st.PutFedClub(ctx, c)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %q", ErrNoFederation, c.Federation)
	}
	return err
}

// Entry is a register entry with what the pages show of it.
type Entry struct {
	Player
	UserID int64 // the linked account, 0 none
	Ranks  []store.FedRank
}

// CheckPlayer says what is wrong with an entry, naming the field.
func CheckPlayer(p Player) error {
	switch {
	case !playerID.MatchString(p.ID):
		return invalid("id %q: up to 24 letters, digits or -", p.ID)
	case !fedCode.MatchString(p.Federation):
		return invalid("federation %q: not a federation code", p.Federation)
	case strings.TrimSpace(p.NameCyrl) == "" && strings.TrimSpace(p.NameLatn) == "":
		return invalid("player %s: a name is needed", p.ID)
	case utf8.RuneCountInString(p.NameCyrl) > 100 || utf8.RuneCountInString(p.NameLatn) > 100:
		return invalid("player %s: a name longer than 100 letters", p.ID)
	case p.BirthYear != 0 && (p.BirthYear < 1900 || p.BirthYear > 2100):
		return invalid("player %s: birth year %d", p.ID, p.BirthYear)
	case p.Sex != Male && p.Sex != Female:
		return invalid("player %s: sex %q is not m or f", p.ID, p.Sex)
	case p.Club != "" && !playerID.MatchString(p.Club):
		return invalid("player %s: club %q", p.ID, p.Club)
	case len(p.Title) > 8:
		return invalid("player %s: title %q", p.ID, p.Title)
	}
	return nil
}

func toStorePlayer(p Player) store.FedPlayer {
	return store.FedPlayer{ID: p.ID, Federation: p.Federation, NameCyrl: p.NameCyrl, NameLatn: p.NameLatn,
		BirthYear: p.BirthYear, Sex: string(p.Sex), Club: p.Club, Title: p.Title}
}

// PutPlayer creates or updates a register entry.
func (s *Service) PutPlayer(ctx context.Context, p Player) error {
	if err := CheckPlayer(p); err != nil {
		return err
	}
	if _, err := s.Federation(ctx, p.Federation); err != nil {
		return err
	}
	return s.st.PutFedPlayer(ctx, toStorePlayer(p))
}

// Player returns the entry with federation id id, or ErrNoPlayer: its
// highest rank and its ratings in its federation's latest lists.
func (s *Service) Player(ctx context.Context, id string) (Player, error) {
	e, err := s.Entry(ctx, id)
	return e.Player, err
}

// Entry returns a register entry with its ranks and linked account.
func (s *Service) Entry(ctx context.Context, id string) (Entry, error) {
	sp, err := s.st.FedPlayerByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Entry{}, fmt.Errorf("%w: %q", ErrNoPlayer, id)
	}
	if err != nil {
		return Entry{}, err
	}
	es, err := s.entries(ctx, []store.FedPlayer{sp})
	if err != nil {
		return Entry{}, err
	}
	return es[0], nil
}

// entries completes store rows with ranks and current ratings.
func (s *Service) entries(ctx context.Context, ps []store.FedPlayer) ([]Entry, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	ranks, err := s.st.FedRanks(ctx, "", ids...)
	if err != nil {
		return nil, err
	}
	feds := map[string]Federation{}
	out := make([]Entry, len(ps))
	for i, p := range ps {
		f, ok := feds[p.Federation]
		if !ok {
			if f, err = s.Federation(ctx, p.Federation); err != nil {
				return nil, err
			}
			feds[p.Federation] = f
		}
		e := Entry{Player: Player{ID: p.ID, Federation: p.Federation, NameCyrl: p.NameCyrl, NameLatn: p.NameLatn,
			BirthYear: p.BirthYear, Sex: Sex(p.Sex), Club: p.Club, Title: p.Title}, UserID: p.UserID}
		var codes []string
		for _, r := range ranks {
			if r.Player == p.ID {
				e.Ranks = append(e.Ranks, r)
				codes = append(codes, r.Rank)
			}
		}
		e.Rank = f.Ranks.Highest(codes)
		lines, err := s.st.FedPlayerEntries(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		for _, l := range lines { // by day: the latest wins
			if l.Federation == p.Federation {
				if e.Ratings == nil {
					e.Ratings = map[Discipline]int{}
				}
				e.Ratings[Discipline(l.Discipline)] = l.Rating
			}
		}
		out[i] = e
	}
	return out, nil
}

// Players returns the entries f selects and how many it selects in all.
func (s *Service) Players(ctx context.Context, f store.FedPlayerFilter) ([]Entry, int, error) {
	f.Limit = min(max(f.Limit, 1), 200)
	ps, total, err := s.st.FedPlayers(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	es, err := s.entries(ctx, ps)
	return es, total, err
}

// Award records a rank of the player's federation's system.
func (s *Service) Award(ctx context.Context, r store.FedRank) error {
	e, err := s.Entry(ctx, r.Player)
	if err != nil {
		return err
	}
	f, err := s.Federation(ctx, e.Federation)
	if err != nil {
		return err
	}
	if f.Ranks.Order(r.Rank) == 0 {
		return invalid("rank %q is not one of federation %s's ranks", r.Rank, f.Code)
	}
	if _, err := time.Parse(time.DateOnly, r.Awarded); err != nil {
		return invalid("rank %s of %s: date %q is not YYYY-MM-DD", r.Rank, r.Player, r.Awarded)
	}
	return s.st.AwardFedRank(ctx, r)
}

// Claim records account userID's claim to be the entry id.
func (s *Service) Claim(ctx context.Context, id string, userID int64) error {
	e, err := s.Entry(ctx, id)
	if err != nil {
		return err
	}
	if e.UserID != 0 {
		return invalid("entry %s is linked to an account already", id)
	}
	return s.st.ClaimFedPlayer(ctx, id, userID)
}

// Claims returns the open claims to a federation's entries.
func (s *Service) Claims(ctx context.Context, code string) ([]store.FedClaim, error) {
	return s.st.FedClaims(ctx, code)
}

// Decide approves or rejects a claim; officer must be an officer of the
// entry's federation.
func (s *Service) Decide(ctx context.Context, officer int64, id string, userID int64, approve bool) error {
	e, err := s.Entry(ctx, id)
	if err != nil {
		return err
	}
	if ok, err := s.IsOfficer(ctx, e.Federation, officer); err != nil {
		return err
	} else if !ok {
		return ErrNotOfficer
	}
	return s.st.DecideFedClaim(ctx, id, userID, approve)
}

// ErrNotOfficer is returned when an account acts for a federation it is
// not an officer of.
var ErrNotOfficer = errors.New("federation: not an officer of this federation")

// LinkedEntry returns the entry linked to account userID, or ErrNoPlayer.
func (s *Service) LinkedEntry(ctx context.Context, userID int64) (Entry, error) {
	p, err := s.st.FedPlayerOfUser(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return Entry{}, ErrNoPlayer
	}
	if err != nil {
		return Entry{}, err
	}
	es, err := s.entries(ctx, []store.FedPlayer{p})
	if err != nil {
		return Entry{}, err
	}
	return es[0], nil
}

// maxReportGames bounds a report: 300 players × 20 rounds.
const maxReportGames = 3000

// Submit keeps an event's report for the next list: every player must be
// in the register, every score 1, 0.5 or 0.
func (s *Service) Submit(ctx context.Context, r Report) error {
	switch {
	case strings.TrimSpace(r.Event) == "" || len(r.Event) > 64:
		return invalid("report: the event's id is empty or longer than 64")
	case !slices.Contains(Disciplines, r.Discipline):
		return invalid("report %s: discipline %q", r.Event, r.Discipline)
	case r.End.Before(r.Start) || r.Start.IsZero():
		return invalid("report %s: it ends before it starts", r.Event)
	case len(r.Games) > maxReportGames:
		return invalid("report %s: %d games, more than %d", r.Event, len(r.Games), maxReportGames)
	}
	if _, err := s.Federation(ctx, r.Federation); err != nil {
		return err
	}
	known := map[string]bool{}
	for i, g := range r.Games {
		if g.Score != 0 && g.Score != 0.5 && g.Score != 1 {
			return invalid("report %s: game %d: score %v", r.Event, i+1, g.Score)
		}
		if g.White == g.Black {
			return invalid("report %s: game %d: %s against himself", r.Event, i+1, g.White)
		}
		for _, id := range []string{g.White, g.Black} {
			if known[id] {
				continue
			}
			if _, err := s.st.FedPlayerByID(ctx, id); errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("report %s: game %d: %w: %q", r.Event, i+1, ErrNoPlayer, id)
			} else if err != nil {
				return err
			}
			known[id] = true
		}
	}
	games, _ := json.Marshal(r.Games)
	return s.st.SubmitFedReport(ctx, store.FedReport{Federation: r.Federation, Event: r.Event, Discipline: string(r.Discipline),
		Name: r.Name, StartDay: r.Start.UTC().Format(time.DateOnly), EndDay: r.End.UTC().Format(time.DateOnly),
		Arbiter: r.Arbiter, Games: string(games)})
}

// Reports returns a federation's reports of a discipline ending in
// [from, to) ("" unbounded), with their games.
func (s *Service) Reports(ctx context.Context, code string, d Discipline, from, to string) ([]Report, error) {
	rows, err := s.st.FedReports(ctx, code, string(d), from, to)
	if err != nil {
		return nil, err
	}
	out := make([]Report, 0, len(rows))
	for _, r := range rows {
		rep := Report{Event: r.Event, Name: r.Name, Federation: r.Federation, Discipline: Discipline(r.Discipline), Arbiter: r.Arbiter}
		rep.Start, _ = time.Parse(time.DateOnly, r.StartDay)
		rep.End, _ = time.Parse(time.DateOnly, r.EndDay)
		if err := json.Unmarshal([]byte(r.Games), &rep.Games); err != nil {
			return nil, fmt.Errorf("report %s: %w", r.Event, err)
		}
		out = append(out, rep)
	}
	return out, nil
}
