package sections

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/teamswiss"
)

// Bounds of what a championship may hold.
const (
	MaxPlayers     = 400 // players in all its sections
	MaxSections    = 16
	MaxRounds      = 15 // of a Swiss section
	MaxRoundRobin  = 24 // players of a round-robin section
	MaxNameRunes   = 120
	MaxArbiters    = 5
	MaxLog         = 5000 // corrections kept
	MaxOpenPerUser = 5
)

// Status is where a championship is in its life.
type Status string

// The statuses of a championship.
const (
	Upcoming Status = "upcoming"
	Running  Status = "running"
	Finished Status = "finished"
)

// Settings are a championship's own: what its papers print in their heads.
type Settings struct {
	Name         string `json:"name"`
	City         string `json:"city,omitempty"`
	Federation   string `json:"federation"` // the federation its rated games are reported to
	Start        string `json:"start"`      // YYYY-MM-DD: ages are counted on it
	End          string `json:"end,omitempty"`
	ChiefArbiter string `json:"chief_arbiter,omitempty"`
	// LateHalf gives a late entry half a point for each round he missed
	// (a zero-point bye otherwise).
	LateHalf bool `json:"late_half,omitempty"`
	// TeamBest counts a team's best results in each section (0: all).
	TeamBest int `json:"team_best,omitempty"`
}

// Spec is a section's definition: who may enter it and how it is paired.
type Spec struct {
	Key        string                `json:"key"` // a-z, 0-9 and '-': in the section's addresses
	Name       string                `json:"name"`
	Discipline federation.Discipline `json:"discipline"`
	Sex        federation.Sex        `json:"sex,omitempty"` // "" open to both
	MinAge     int                   `json:"min_age,omitempty"`
	MaxAge     int                   `json:"max_age,omitempty"` // 16: under 17; ages on the start date's year
	MinRating  int                   `json:"min_rating,omitempty"`
	MaxRating  int                   `json:"max_rating,omitempty"`
	System     tournament.System     `json:"system"` // dutch, roundrobin, double or another Swiss system (burstein)
	Rounds     int                   `json:"rounds,omitempty"`
	TC         string                `json:"tc,omitempty"` // the time control as its papers print it
	// TeamBoards and TeamsBy are a team Swiss's (teamswiss.go): the boards
	// of a match, and whether its teams are clubs or federations.
	TeamBoards int    `json:"boards,omitempty"`
	TeamsBy    string `json:"teams_by,omitempty"`
}

// Section is one section: its spec, its event (players by start number,
// rounds, results) and the federation ids of its players, IDs[start-1].
type Section struct {
	Spec
	Event *tournament.Event `json:"event"`
	IDs   []string          `json:"ids"`
}

// Correction is a result changed after it was entered: who, when, what it
// was and what it became.
type Correction struct {
	At      time.Time `json:"at"`
	By      int64     `json:"by"`
	ByName  string    `json:"by_name"`
	Section string    `json:"section"`
	Round   int       `json:"round"`
	Board   int       `json:"board"`
	White   string    `json:"white"` // federation ids
	Black   string    `json:"black"`
	Before  string    `json:"before"`
	After   string    `json:"after"`
}

// Championship is an event with sections. A value is a copy owned by its
// reader: the Desk changes a copy and writes it whole.
type Championship struct {
	ID       string  `json:"-"`
	Creator  int64   `json:"creator"`
	Arbiters []int64 `json:"arbiters,omitempty"`
	// ArbiterNames are the arbiters' account names as the creator typed them.
	ArbiterNames []string                     `json:"arbiter_names,omitempty"`
	Settings     Settings                     `json:"settings"`
	Players      map[string]federation.Player `json:"players"` // the register's entries as they were taken
	Sections     []*Section                   `json:"sections"`
	Log          []Correction                 `json:"log,omitempty"`
	// Submitted is when each discipline's report went to the federation.
	Submitted map[federation.Discipline]time.Time `json:"submitted,omitempty"`
	Created   time.Time                           `json:"created"`
	version   int
}

var keyRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// Check validates a new championship's settings and sections and fills in
// their defaults.
func Check(s *Settings, specs []Spec) error {
	s.Name = strings.TrimSpace(s.Name)
	if s.Name == "" || utf8.RuneCountInString(s.Name) > MaxNameRunes {
		return bad("sections.err_name", MaxNameRunes)
	}
	if len(s.City) > 200 || len(s.ChiefArbiter) > 200 {
		return bad("sections.err_name", MaxNameRunes)
	}
	s.Federation = strings.ToUpper(strings.TrimSpace(s.Federation))
	if s.Federation == "" || len(s.Federation) > 16 {
		return bad("sections.err_federation")
	}
	if _, err := time.Parse(time.DateOnly, s.Start); err != nil {
		return bad("sections.err_date", s.Start)
	}
	if s.End != "" {
		if end, err := time.Parse(time.DateOnly, s.End); err != nil || s.End < s.Start || end.IsZero() {
			return bad("sections.err_date", s.End)
		}
	}
	if s.TeamBest < 0 || s.TeamBest > 50 {
		s.TeamBest = 0
	}
	if len(specs) == 0 || len(specs) > MaxSections {
		return bad("sections.err_sections", MaxSections)
	}
	seen := map[string]bool{}
	for i := range specs {
		if err := specs[i].check(); err != nil {
			return err
		}
		if seen[specs[i].Key] {
			return bad("sections.err_key", specs[i].Key)
		}
		seen[specs[i].Key] = true
	}
	return nil
}

func (sp *Spec) check() error {
	sp.Key = strings.ToLower(strings.TrimSpace(sp.Key))
	sp.Name = strings.TrimSpace(sp.Name)
	if !keyRE.MatchString(sp.Key) {
		return bad("sections.err_key", sp.Key)
	}
	if sp.Name == "" || utf8.RuneCountInString(sp.Name) > MaxNameRunes {
		return bad("sections.err_name", MaxNameRunes)
	}
	if !slices.Contains(federation.Disciplines, sp.Discipline) {
		return bad("sections.err_discipline", string(sp.Discipline))
	}
	if sp.Sex != "" && sp.Sex != federation.Male && sp.Sex != federation.Female {
		return bad("sections.err_limits", sp.Key)
	}
	if sp.MinAge < 0 || sp.MaxAge < 0 || sp.MaxAge > 150 || (sp.MaxAge > 0 && sp.MaxAge < sp.MinAge) ||
		sp.MinRating < 0 || sp.MaxRating < 0 || (sp.MaxRating > 0 && sp.MaxRating < sp.MinRating) {
		return bad("sections.err_limits", sp.Key)
	}
	switch sp.System {
	case tournament.Dutch, tournament.DoubleSwiss, // a Double-Swiss's rounds are its matches here
		tournament.Dubov, tournament.Burstein:
		if sp.Rounds < 1 || sp.Rounds > MaxRounds {
			return bad("sections.err_rounds", sp.Key, MaxRounds)
		}
	case tournament.RoundRobin, tournament.DoubleRoundRobin:
		sp.Rounds = 0 // from the players, at the first round
	case tournament.TeamSwiss:
		if err := sp.checkTeams(); err != nil {
			return err
		}
	default:
		return bad("sections.err_system", sp.Key)
	}
	if len(sp.TC) > 40 {
		return bad("sections.err_limits", sp.Key)
	}
	return nil
}

// newSection returns an empty section of spec sp: FIDE's scoring, the
// tie-breaks its system calls for.
func newSection(set Settings, sp Spec) *Section {
	if sp.System == tournament.DoubleSwiss {
		sp.Rounds *= 2 // the event's rounds: two a match
	}
	e := tournament.New(set.Name+": "+sp.Name, sp.System, sp.Rounds)
	// TRF's dates: FIDE's K for the young is decided by them.
	e.StartDate, e.EndDate = strings.ReplaceAll(set.Start, "-", "/"), strings.ReplaceAll(set.End, "-", "/")
	e.City, e.Federation, e.ChiefArbiter = set.City, set.Federation, set.ChiefArbiter
	tbs := "BH/C1 BH SB WIN"
	if !sp.System.Swiss() {
		tbs = "DE SB WIN KS"
		// An odd round robin's bye is the round against the Berger
		// tables' dummy: a rest that scores nothing.
		e.Scoring.PairingBye = 0
	}
	e.TieBreaks, _ = tournament.ParseTieBreaks(tbs)
	e.TimeControl = sp.TC
	return &Section{Spec: sp, Event: e}
}

// Status says where the championship is: upcoming before any section's
// first round, finished when every section has played its rounds.
func (c *Championship) Status() Status {
	started, done := false, true
	for _, s := range c.Sections {
		if s.Event.Played() > 0 {
			started = true
		}
		if !s.Finished() {
			done = false
		}
	}
	switch {
	case !started:
		return Upcoming
	case done:
		return Finished
	}
	return Running
}

// Finished reports whether the section has played all its rounds, every
// result in.
func (s *Section) Finished() bool {
	n := s.Event.Played()
	return n > 0 && n >= s.Event.Rounds && s.Event.Complete(n)
}

// Round returns the section's current round: the last one paired (0
// before the first).
func (s *Section) Round() int { return s.Event.Played() }

// Section returns the section with key k, or nil.
func (c *Championship) Section(k string) *Section {
	for _, s := range c.Sections {
		if s.Key == k {
			return s
		}
	}
	return nil
}

// IsArbiter reports whether user may use the arbiter's desk.
func (c *Championship) IsArbiter(user int64) bool {
	return user != 0 && (user == c.Creator || slices.Contains(c.Arbiters, user))
}

// Disciplines returns the disciplines of its sections, in the register's
// order.
func (c *Championship) Disciplines() []federation.Discipline {
	var out []federation.Discipline
	for _, d := range federation.Disciplines {
		for _, s := range c.Sections {
			if s.Discipline == d {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// startYear is the year ages are counted in.
func (c *Championship) startYear() int {
	y, _ := strconv.Atoi(c.Settings.Start[:4])
	return y
}

// Eligible reports whether p may enter section s (sex, age, rating in
// the section's discipline); the key of the reason when not.
func (c *Championship) Eligible(s *Section, p federation.Player) (bool, string) {
	if ok, why := c.teamEligible(s, p); !ok {
		return false, why
	}
	if s.Sex != "" && p.Sex != s.Sex {
		return false, "sections.why_sex"
	}
	if s.MinAge > 0 || s.MaxAge > 0 {
		if p.BirthYear == 0 {
			return false, "sections.why_age"
		}
		age := c.startYear() - p.BirthYear
		if age < s.MinAge || (s.MaxAge > 0 && age > s.MaxAge) {
			return false, "sections.why_age"
		}
	}
	r := p.Ratings[s.Discipline]
	if r < s.MinRating || (s.MaxRating > 0 && r > s.MaxRating) {
		return false, "sections.why_rating"
	}
	return true, ""
}

// sectionsOf returns the sections p is in.
func (c *Championship) sectionsOf(id string) []*Section {
	var out []*Section
	for _, s := range c.Sections {
		if slices.Contains(s.IDs, id) {
			out = append(out, s)
		}
	}
	return out
}

// Enter enters the register's player p in the sections named (none: in
// each discipline the first section he is eligible for). A section that
// has begun takes him as a late entry, if its system allows.
func (c *Championship) Enter(p federation.Player, keys []string) ([]string, error) {
	var targets []*Section
	if len(keys) == 0 {
		for _, d := range c.Disciplines() {
			for _, s := range c.Sections {
				if ok, _ := c.Eligible(s, p); ok && s.Discipline == d {
					targets = append(targets, s)
					break
				}
			}
		}
		if len(targets) == 0 {
			return nil, bad("sections.err_no_section", p.ID)
		}
	}
	for _, k := range keys {
		s := c.Section(k)
		if s == nil {
			return nil, bad("sections.err_no_such_section", k)
		}
		if ok, why := c.Eligible(s, p); !ok {
			return nil, &Error{Code: "bad_request", Key: "sections.err_not_eligible", Args: []any{p.ID, s.Name}, Why: why}
		}
		targets = append(targets, s)
	}
	if _, in := c.Players[p.ID]; !in && len(c.Players) >= MaxPlayers {
		return nil, conflict("sections.err_full", MaxPlayers)
	}
	for _, s := range targets {
		if slices.Contains(s.IDs, p.ID) {
			return nil, conflict("sections.err_entered", p.ID, s.Name)
		}
		for _, o := range c.sectionsOf(p.ID) {
			if o.Discipline == s.Discipline {
				return nil, conflict("sections.err_entered", p.ID, o.Name)
			}
		}
		if !s.System.Swiss() {
			if s.Round() > 0 {
				return nil, conflict("sections.err_late_rr", s.Name)
			}
			if len(s.IDs) >= MaxRoundRobin {
				return nil, conflict("sections.err_full", MaxRoundRobin)
			}
		}
	}
	missed := tournament.ZeroBye
	if c.Settings.LateHalf {
		missed = tournament.HalfBye
	}
	var names []string
	for _, s := range targets {
		tp := tournament.Player{Name: latin(p), Rating: p.Ratings[s.Discipline], Federation: p.Federation, Title: p.Title}
		if len(p.ID) <= 11 {
			tp.ID = p.ID
		}
		if p.BirthYear > 0 {
			tp.Birth = strconv.Itoa(p.BirthYear)
		}
		switch p.Sex {
		case federation.Male:
			tp.Sex = 'm'
		case federation.Female:
			tp.Sex = 'w'
		}
		if _, err := s.Event.AddPlayer(tp, missed); err != nil {
			return nil, fmt.Errorf("sections: %s in %s: %w", p.ID, s.Key, err)
		}
		s.IDs = append(s.IDs, p.ID)
		names = append(names, s.Key)
	}
	if c.Players == nil {
		c.Players = map[string]federation.Player{}
	}
	c.Players[p.ID] = p
	return names, nil
}

// latin is the name the section's TRF carries: the Latin one, else the
// Cyrillic transliterated, in ASCII letters (TRF's columns are bytes).
func latin(p federation.Player) string {
	n := strings.TrimSpace(p.NameLatn)
	if n == "" {
		n = i18n.Latin(strings.TrimSpace(p.NameCyrl))
	}
	folded, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), n)
	if err != nil {
		folded = n
	}
	n = strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII {
			return '?'
		}
		return r
	}, folded)
	if strings.TrimSpace(n) == "" {
		return p.ID
	}
	return n
}

// Start returns the start number of federation id id in s, 0 if absent.
func (s *Section) Start(id string) int {
	if i := slices.Index(s.IDs, id); i >= 0 {
		return i + 1
	}
	return 0
}

// ID returns the federation id of start number n.
func (s *Section) ID(n int) string {
	if n < 1 || n > len(s.IDs) {
		return ""
	}
	return s.IDs[n-1]
}

// Withdraw takes a player out of the rounds of s not yet paired.
func (c *Championship) Withdraw(key, id string) error {
	s := c.Section(key)
	if s == nil {
		return bad("sections.err_no_such_section", key)
	}
	n := s.Start(id)
	if n == 0 {
		return bad("sections.err_not_in", id, s.Name)
	}
	return s.Event.Withdraw(n)
}

// RequestBye records a bye asked for in advance: half a point or none
// (code H or Z) in round r of s, not yet paired.
func (c *Championship) RequestBye(key, id string, r int, half bool) error {
	s := c.Section(key)
	if s == nil {
		return bad("sections.err_no_such_section", key)
	}
	n := s.Start(id)
	if n == 0 {
		return bad("sections.err_not_in", id, s.Name)
	}
	if !s.System.Swiss() {
		return conflict("sections.err_bye_rr", s.Name)
	}
	if r <= s.Round() || (s.Rounds > 0 && r > s.Rounds) {
		return bad("sections.err_bye_round", r)
	}
	code := tournament.ZeroBye
	if half {
		code = tournament.HalfBye
	}
	if err := s.Event.RequestBye(n, r, code); err != nil {
		return conflict("sections.err_bye_twice", id, r)
	}
	return nil
}

// seed gives the players of s their start numbers by rating (then title,
// then name) before the first round, as C.04 wants for a Swiss and the
// Berger tables take them.
func (s *Section) seed() {
	e := s.Event
	type pl struct {
		p  tournament.Player
		id string
	}
	ps := make([]pl, len(e.Players))
	for i := range e.Players {
		ps[i] = pl{e.Players[i], s.IDs[i]}
	}
	slices.SortStableFunc(ps, func(a, b pl) int {
		return cmp.Or(b.p.Rating-a.p.Rating, cmp.Compare(a.p.Name, b.p.Name), cmp.Compare(a.id, b.id))
	})
	old := map[int]int{} // old start number -> new
	for i := range ps {
		old[ps[i].p.Start] = i + 1
	}
	for i := range ps {
		ps[i].p.Start = i + 1
		e.Players[i] = ps[i].p
		s.IDs[i] = ps[i].id
	}
	for i, w := range e.Withdrawn {
		e.Withdrawn[i] = old[w]
	}
	slices.Sort(e.Withdrawn)
}

// Ready reports whether s may be paired now: rounds left, the round before
// complete, players enough.
func (s *Section) Ready() bool {
	r := s.Round()
	if r > 0 && !s.Event.Complete(r) {
		return false
	}
	if r == 0 {
		return len(s.IDs) >= 2
	}
	return r < s.Event.Rounds
}

// Pair pairs the next round of s with pairer p (the Dutch pairer for a
// Swiss; nil for a round robin, which has its tables).
func (s *Section) Pair(swiss tournament.Pairer) (int, error) {
	if !s.Ready() {
		return 0, conflict("sections.err_not_ready", s.Name)
	}
	r := s.Round() + 1
	if r == 1 {
		s.seed()
		switch s.System {
		case tournament.RoundRobin:
			s.Event.Rounds = len(s.IDs) - 1 + len(s.IDs)%2
		case tournament.DoubleRoundRobin:
			s.Event.Rounds = 2 * (len(s.IDs) - 1 + len(s.IDs)%2)
		}
		s.Rounds = s.Event.Rounds
	}
	if s.System == tournament.TeamSwiss {
		swiss = teamswiss.Pairer{}
	}
	pairer, err := tournament.PairerFor(s.System, swiss)
	if err != nil {
		return 0, err
	}
	pairs, err := pairer.Pair(s.Event)
	if err != nil {
		return 0, &Error{Code: "conflict", Key: "sections.err_pairing", Args: []any{s.Name, err.Error()}}
	}
	if err := s.Event.Apply(r, pairs); err != nil {
		return 0, fmt.Errorf("sections: %s round %d: %w", s.Key, r, err)
	}
	return r, nil
}

// Board is one board of a round as the desk and the papers show it.
type Board struct {
	N            int
	White, Black int // start numbers; Black 0 for the bye
	Result       string
}

// Boards returns round r's boards of s in board order.
func (s *Section) Boards(r int) []Board {
	var out []Board
	for i, pr := range s.teamOrder(s.Event.Pairs(r)) {
		out = append(out, Board{N: i + 1, White: pr.White, Black: pr.Black, Result: s.result(r, pr)})
	}
	return out
}

// result is a board's result as the arbiter types it ("" pending).
func (s *Section) result(r int, pr tournament.Pair) string {
	if pr.Black == 0 {
		return ""
	}
	w, b := s.Event.Player(pr.White).Entry(r).Code, s.Event.Player(pr.Black).Entry(r).Code
	switch {
	case w == tournament.Pending:
		return ""
	case w == tournament.Win || w == tournament.WinUnrated:
		return string(tournament.WhiteWins)
	case w == tournament.Loss || w == tournament.LossUnrated:
		return string(tournament.BlackWins)
	case w == tournament.Draw || w == tournament.DrawUnrated:
		return string(tournament.Drawn)
	case w == tournament.ForfeitWin:
		return string(tournament.WhiteForfeit)
	case w == tournament.ForfeitLoss && b == tournament.ForfeitWin:
		return string(tournament.BlackForfeit)
	case w == tournament.ForfeitLoss:
		return string(tournament.DoubleForfeit)
	}
	return ""
}

// Results are the results the game can have on the desk, in its order.
var Results = []tournament.Result{tournament.WhiteWins, tournament.Drawn, tournament.BlackWins,
	tournament.WhiteForfeit, tournament.BlackForfeit, tournament.DoubleForfeit}

// SetResult enters the result of board n of round r in s; a changed
// result is logged as a correction by who at now.
func (c *Championship) SetResult(key string, r, n int, res string, by int64, byName string, now time.Time) (changed bool, err error) {
	s := c.Section(key)
	if s == nil {
		return false, bad("sections.err_no_such_section", key)
	}
	if r < 1 || r > s.Round() {
		return false, bad("sections.err_round", r)
	}
	boards := s.Boards(r)
	if n < 1 || n > len(boards) || boards[n-1].Black == 0 {
		return false, bad("sections.err_board", n)
	}
	b := boards[n-1]
	parsed, err := tournament.ParseResult(res)
	if err != nil || !slices.Contains(Results, parsed) {
		return false, bad("sections.err_result", res)
	}
	if b.Result == string(parsed) {
		return false, nil
	}
	if err := s.Event.SetResult(r, b.White, parsed); err != nil {
		return false, fmt.Errorf("sections: %s round %d board %d: %w", key, r, n, err)
	}
	if b.Result != "" {
		c.Log = append(c.Log, Correction{At: now.UTC(), By: by, ByName: byName, Section: key, Round: r, Board: n,
			White: s.ID(b.White), Black: s.ID(b.Black), Before: b.Result, After: string(parsed)})
		if len(c.Log) > MaxLog {
			c.Log = c.Log[len(c.Log)-MaxLog:]
		}
	}
	return true, nil
}

// Name returns the name of a register entry in a page's language:
// Cyrillic for the Cyrillic languages, else Latin.
func (c *Championship) Name(id, lang string) string {
	p, ok := c.Players[id]
	if !ok {
		return id
	}
	cyr, lat := strings.TrimSpace(p.NameCyrl), strings.TrimSpace(p.NameLatn)
	switch {
	case (lang == "kk" || lang == "ky" || lang == "ru") && cyr != "":
		return cyr
	case lat != "":
		return lat
	case cyr != "":
		return cyr
	}
	return id
}

// Team is one team's result across the sections: a club's or a
// federation's (a region's) players together.
type Team struct {
	Name    string
	Players int
	Points  float64
	Games   int
	// BySection is the points its players scored in each section, by key.
	BySection map[string]float64
}

// PointsText is the team's points as the pages write them (½ for a half).
func (t Team) PointsText() string { return points(t.Points) }

// Teams returns the teams' results, by club ("club") or by federation
// ("federation"): in each section the best Settings.TeamBest players'
// points count (all when 0). Players without a club are no team's.
func (c *Championship) Teams(by string) []Team {
	teams := map[string]*Team{}
	for _, s := range c.Sections {
		per := map[string][]float64{}
		games := map[string]int{}
		for i := range s.Event.Players {
			p := &s.Event.Players[i]
			reg := c.Players[s.IDs[i]]
			name := reg.Club
			if by == "federation" {
				name = reg.Federation
			}
			if name == "" {
				continue
			}
			per[name] = append(per[name], s.Event.Score(p, -1))
			for _, en := range p.Rounds {
				if en.Played() {
					games[name]++
				}
			}
		}
		for name, pts := range per {
			t := teams[name]
			if t == nil {
				t = &Team{Name: name, BySection: map[string]float64{}}
				teams[name] = t
			}
			slices.SortFunc(pts, func(a, b float64) int { return cmp.Compare(b, a) })
			if c.Settings.TeamBest > 0 && len(pts) > c.Settings.TeamBest {
				pts = pts[:c.Settings.TeamBest]
			}
			for _, x := range pts {
				t.Points += x
				t.BySection[s.Key] += x
			}
			t.Players += len(per[name])
			t.Games += games[name]
		}
	}
	out := make([]Team, 0, len(teams))
	for _, t := range teams {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Team) int { return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(a.Name, b.Name)) })
	return out
}

// DisciplineFinished reports whether every section of discipline d has
// played all its rounds.
func (c *Championship) DisciplineFinished(d federation.Discipline) bool {
	n := 0
	for _, s := range c.Sections {
		if s.Discipline == d {
			n++
			if !s.Finished() {
				return false
			}
		}
	}
	return n > 0
}

// Report returns the rated games of discipline d's sections as a report
// to the championship's federation: every game paired, by the players'
// federation ids, forfeits marked (they count for the event, not for
// ratings). The report ends on the championship's last day where its
// settings name one (its rating period is the month it ended in, not the
// month the report was sent), else on the day it is sent (now), and
// never before its first day.
func (c *Championship) Report(d federation.Discipline, arbiter int64, now time.Time) federation.Report {
	start, _ := time.Parse(time.DateOnly, c.Settings.Start)
	end := now.UTC()
	if e, err := time.Parse(time.DateOnly, c.Settings.End); err == nil {
		end = e
	}
	if end.Before(start) {
		end = start
	}
	rep := federation.Report{Event: c.ID, Name: c.Settings.Name, Federation: c.Settings.Federation, Discipline: d,
		Start: start, End: end, Arbiter: arbiter}
	for _, s := range c.Sections {
		if s.Discipline != d {
			continue
		}
		for r := 1; r <= s.Round(); r++ {
			for _, b := range s.Boards(r) {
				if b.Black == 0 || b.Result == "" {
					continue
				}
				g := federation.Game{Round: r, White: s.ID(b.White), Black: s.ID(b.Black)}
				switch tournament.Result(b.Result) {
				case tournament.WhiteWins:
					g.Score = 1
				case tournament.Drawn:
					g.Score = 0.5
				case tournament.WhiteForfeit:
					g.Score, g.Forfeit = 1, true
				case tournament.BlackForfeit, tournament.DoubleForfeit:
					g.Forfeit = true
				}
				rep.Games = append(rep.Games, g)
			}
		}
	}
	return rep
}
