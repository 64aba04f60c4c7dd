package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Colour is a player's colour in one round as TRF-16 writes it: 'w', 'b',
// or '-' when the player had no opponent.
type Colour byte

const (
	White   Colour = 'w'
	Black   Colour = 'b'
	NoColor Colour = '-'
)

// Code is a round's result as TRF-16 writes it.
type Code byte

const (
	Win         Code = '1' // won over the board
	Loss        Code = '0'
	Draw        Code = '='
	ForfeitWin  Code = '+' // won by forfeit (the opponent did not come)
	ForfeitLoss Code = '-' // lost by forfeit; with no opponent: absent, withdrawn
	WinUnrated  Code = 'W' // a game that is not rated, such as a knock-out's tie-break
	DrawUnrated Code = 'D'
	LossUnrated Code = 'L'
	HalfBye     Code = 'H' // half-point bye requested in advance
	FullBye     Code = 'F' // full-point bye
	PairingBye  Code = 'U' // the pairing-allocated bye
	ZeroBye     Code = 'Z' // zero-point bye requested in advance
	Pending     Code = '*' // paired, no result yet (written as a blank)
)

// validCodes are the result characters of an entry.
const validCodes = "10=+-WDLHFUZ*"

// Entry is one player's round: the opponent's start number (0 for none),
// the colour and the result. The zero Entry is a round the player was not
// paired in.
type Entry struct {
	Opponent int
	Colour   Colour
	Code     Code
}

// None reports whether the entry is empty: the round is not paired for
// the player, or (after the rounds were played) the player was not there.
func (e Entry) None() bool { return e.Code == 0 }

// Played reports a game played over the board (C.07's "played game").
func (e Entry) Played() bool {
	switch e.Code {
	case Win, Loss, Draw, WinUnrated, DrawUnrated, LossUnrated:
		return e.Opponent > 0
	}
	return false
}

// Rated reports a game that counts for the rating: played over the
// board with 1, = or 0.
func (e Entry) Rated() bool {
	return e.Opponent > 0 && (e.Code == Win || e.Code == Draw || e.Code == Loss)
}

// Bye reports a round without an opponent that the player is not to be
// paired in: the byes H, F, U, Z and an absence.
func (e Entry) Bye() bool { return e.Opponent == 0 && e.Code != 0 && e.Code != Pending }

// VUR reports a voluntary unplayed round in C.07's sense (art. 16): not
// played and not scored as a win: a forfeit loss, a requested half- or
// zero-point bye, an absence. The pairing-allocated bye, a full-point bye
// and a forfeit win are not voluntary.
func (e Entry) VUR() bool {
	switch e.Code {
	case ForfeitLoss, HalfBye, ZeroBye, 0:
		return true
	}
	return false
}

// requested reports a bye that can be asked for in advance: H, Z or F
// without an opponent.
func (e Entry) requested() bool {
	return e.Opponent == 0 && (e.Code == HalfBye || e.Code == ZeroBye || e.Code == FullBye)
}

// Player is one participant, with the fields of a TRF-16 001 line.
type Player struct {
	Start      int    // starting rank (pairing number), 1..n
	Sex        byte   // 'm', 'w' or 0
	Title      string // GM, IM, ... as the federation gives it
	Name       string // "Lastname, Firstname"
	Rating     int    // 0 when unrated
	Federation string // three letters
	ID         string // the federation's or FIDE's player number
	Birth      string // YYYY/MM/DD, or a year
	Points     float64
	Rank       int
	Rounds     []Entry // Rounds[r-1] is round r
}

// Entry returns the player's entry in round r (1-based), empty past the
// rounds written.
func (p *Player) Entry(r int) Entry {
	if r < 1 || r > len(p.Rounds) {
		return Entry{}
	}
	return p.Rounds[r-1]
}

func (p *Player) setEntry(r int, e Entry) {
	for len(p.Rounds) < r {
		p.Rounds = append(p.Rounds, Entry{})
	}
	p.Rounds[r-1] = e
}

// Age returns the player's age in whole years on the date given as
// YYYY/MM/DD (for sections by age), and false when the birth date is
// missing. A birth given as a year alone counts from 1 January.
func (p *Player) Age(on string) (int, bool) {
	by, bm, bd, ok := parseDate(p.Birth)
	oy, om, od, ok2 := parseDate(on)
	if !ok || !ok2 {
		return 0, false
	}
	age := oy - by
	if om < bm || om == bm && od < bd {
		age--
	}
	return age, true
}

func parseDate(s string) (y, m, d int, ok bool) {
	s = strings.TrimSpace(s)
	if n, _ := fmt.Sscanf(s, "%d/%d/%d", &y, &m, &d); n == 3 {
		return y, m, d, true
	}
	if n, _ := fmt.Sscanf(s, "%d-%d-%d", &y, &m, &d); n == 3 {
		return y, m, d, true
	}
	if n, _ := fmt.Sscanf(s, "%d", &y); n == 1 && y > 1000 {
		return y, 1, 1, true
	}
	return 0, 0, 0, false
}

// Scoring gives the points of each kind of round. FIDE C.04.1 leaves the
// byes' points to the event's rules: the pairing-allocated bye scores as a
// win unless the rules say otherwise, a half-point bye a draw.
type Scoring struct {
	Win, Draw, Loss         float64
	ForfeitWin, ForfeitLoss float64
	PairingBye              float64 // U
	HalfBye, FullBye        float64 // H, F
	ZeroBye                 float64 // Z
}

// FIDEScoring is 1, ½, 0 with the byes as C.04.1 scores them by default.
var FIDEScoring = Scoring{Win: 1, Draw: 0.5, Loss: 0, ForfeitWin: 1, ForfeitLoss: 0, PairingBye: 1, HalfBye: 0.5, FullBye: 1, ZeroBye: 0}

// Points returns the points of an entry.
func (s Scoring) Points(e Entry) float64 {
	switch e.Code {
	case Win, WinUnrated:
		return s.Win
	case Draw, DrawUnrated:
		return s.Draw
	case Loss, LossUnrated:
		return s.Loss
	case ForfeitWin:
		return s.ForfeitWin
	case ForfeitLoss:
		return s.ForfeitLoss
	case PairingBye:
		return s.PairingBye
	case HalfBye:
		return s.HalfBye
	case FullBye:
		return s.FullBye
	case ZeroBye:
		return s.ZeroBye
	}
	return 0
}

// System is a pairing system.
type System string

const (
	RoundRobin       System = "roundrobin"
	DoubleRoundRobin System = "double"
	Knockout         System = "knockout"
	Dutch            System = "dutch"
	// DutchBaku is the Dutch system with the Baku acceleration (C.04.5.1):
	// virtual points for the top half in the first half of the rounds.
	DutchBaku System = "baku"
	// TeamSwiss is FIDE's Swiss Team Pairing System (C.04.6): teams paired
	// by match points, the colour of a match its first board's.
	TeamSwiss System = "teamswiss"
	// Dubov is the Dubov system (C.04.4.1, 2026): in each bracket the
	// players with the lowest average rating of opponents meet the
	// highest rated; package internal/tournament/dubov.
	Dubov System = "dubov"
	// Burstein is the Burstein system (C.04.4.2): Dutch seeding rounds,
	// then the brackets' players ranked by an Index of their opposition;
	// package internal/tournament/burstein.
	Burstein System = "burstein"
)

// Swiss reports a Swiss system: players paired round by round from their
// scores, late entries allowed, those left out of a round absent.
func (s System) Swiss() bool {
	return s == Dutch || s == DutchBaku || s == TeamSwiss || s == DoubleSwiss ||
		s == Dubov || s == Burstein
}

// ParseSystem reads a system's name.
func ParseSystem(s string) (System, error) {
	switch sys := System(strings.ToLower(strings.TrimSpace(s))); sys {
	case RoundRobin, DoubleRoundRobin, Knockout, Dutch, DutchBaku:
		return sys, nil
	case "rr", "berger":
		return RoundRobin, nil
	case "drr":
		return DoubleRoundRobin, nil
	case "ko":
		return Knockout, nil
	case TeamSwiss:
		return sys, nil
	case DoubleSwiss, "double-swiss":
		return DoubleSwiss, nil
	case Dubov:
		return sys, nil
	case Burstein:
		return sys, nil
	}
	return "", fmt.Errorf("unknown pairing system %q (roundrobin, double, knockout, dutch, baku, teamswiss, doubleswiss, dubov, burstein)", s)
}

// Event is a tournament: the header of its TRF file, its players and their
// rounds, and the rules it is run by.
type Event struct {
	Name, City, Federation string
	StartDate, EndDate     string
	Type                   string // 092: the type of tournament, in words
	ChiefArbiter           string
	Deputies               []string
	TimeControl            string   // 122
	RoundDates             []string // 132, one per round
	Rounds                 int      // XXR: the rounds planned
	Colour                 string   // XXC: "white1" or "black1" (the top seed's colour in round 1), "rank", ...
	System                 System   // XXY
	Scoring                Scoring  // XXS
	TieBreaks              []TieBreak
	Knockout               KnockoutFormat // XXK
	Withdrawn              []int          // XXW: start numbers of the players who withdrew
	Repetition             int            // XXD: the Nth occurrence of a position draws; 0 is off
	Players                []Player
	Extra                  []string // lines this package does not read, kept in order
}

// New returns an event with FIDE scoring.
func New(name string, system System, rounds int) *Event {
	e := &Event{Name: name, System: system, Rounds: rounds, Scoring: FIDEScoring}
	if system == DoubleSwiss {
		e.Scoring.PairingBye = DoubleSwissPAB
	}
	return e
}

// Player returns the player with a start number, or nil.
func (e *Event) Player(start int) *Player {
	if start < 1 || start > len(e.Players) || e.Players[start-1].Start != start {
		for i := range e.Players {
			if e.Players[i].Start == start {
				return &e.Players[i]
			}
		}
		return nil
	}
	return &e.Players[start-1]
}

// Played returns the number of rounds with an entry: the rounds paired so
// far (the last may still be in play).
func (e *Event) Played() int {
	n := 0
	for i := range e.Players {
		for r := len(e.Players[i].Rounds); r > n; r-- {
			en := e.Players[i].Rounds[r-1]
			if !en.None() && !(en.requested() && e.onlyRequests(r)) {
				n = r
				break
			}
		}
	}
	return n
}

// onlyRequests reports whether round r holds nothing but byes requested in
// advance: by the pairing programs' convention such a round is the next
// one, not yet paired.
func (e *Event) onlyRequests(r int) bool {
	for i := range e.Players {
		en := e.Players[i].Entry(r)
		if !en.None() && !en.requested() {
			return false
		}
	}
	return true
}

// Complete reports whether every game of round r has a result.
func (e *Event) Complete(r int) bool {
	for i := range e.Players {
		if e.Players[i].Entry(r).Code == Pending {
			return false
		}
	}
	return true
}

// Score returns a player's points after round r (all rounds when r < 0).
func (e *Event) Score(p *Player, r int) float64 {
	if r < 0 || r > len(p.Rounds) {
		r = len(p.Rounds)
	}
	s := 0.0
	for _, en := range p.Rounds[:r] {
		s += e.Scoring.Points(en)
	}
	return s
}

// AddPlayer adds a player with the next start number. A late entry (the
// event has begun) gets missed for each round already paired: ZeroBye, or
// HalfBye where the event's rules give late entrants half a point.
func (e *Event) AddPlayer(p Player, missed Code) (*Player, error) {
	if strings.TrimSpace(p.Name) == "" {
		return nil, errors.New("a player needs a name")
	}
	if missed != ZeroBye && missed != HalfBye && missed != ForfeitLoss {
		return nil, fmt.Errorf("a late entry's missed rounds are %c, %c or %c, not %q", ZeroBye, HalfBye, ForfeitLoss, missed)
	}
	if !e.System.Swiss() && e.System != "" && e.Played() > 0 {
		return nil, fmt.Errorf("a %s event cannot take a player after its first round", e.System)
	}
	p.Start = len(e.Players) + 1
	p.Rounds = nil
	missedTo := e.Played()
	if e.System == DoubleSwiss {
		missedTo += missedTo % 2 // a match begun is missed whole
	}
	for r := 1; r <= missedTo; r++ {
		p.setEntry(r, Entry{Colour: NoColor, Code: missed})
	}
	e.Players = append(e.Players, p)
	return &e.Players[len(e.Players)-1], nil
}

// Withdraw takes a player out of the rounds not yet paired.
func (e *Event) Withdraw(start int) error {
	if e.Player(start) == nil {
		return fmt.Errorf("no player %d", start)
	}
	if !slices.Contains(e.Withdrawn, start) {
		e.Withdrawn = append(e.Withdrawn, start)
		slices.Sort(e.Withdrawn)
	}
	return nil
}

// RequestBye records a half- or zero-point bye that a player asked for in
// advance for round r: by the pairing programs' convention that round's
// entry is written before it is paired, and the player is left out.
func (e *Event) RequestBye(start, r int, c Code) error {
	p := e.Player(start)
	if p == nil {
		return fmt.Errorf("no player %d", start)
	}
	if c != HalfBye && c != ZeroBye && c != FullBye {
		return fmt.Errorf("a requested bye is %c, %c or %c, not %q", HalfBye, ZeroBye, FullBye, c)
	}
	if e.System == DoubleSwiss {
		return e.requestMatchBye(p, r, c)
	}
	if r <= e.Played() {
		return fmt.Errorf("round %d is already paired", r)
	}
	if !p.Entry(r).None() {
		return fmt.Errorf("player %d already has an entry in round %d", start, r)
	}
	p.setEntry(r, Entry{Colour: NoColor, Code: c})
	return nil
}

// Available returns the start numbers of the players to pair in round r:
// those not withdrawn and without an entry (a requested bye) for it.
func (e *Event) Available(r int) []int {
	var out []int
	for i := range e.Players {
		p := &e.Players[i]
		if !slices.Contains(e.Withdrawn, p.Start) && p.Entry(r).None() {
			out = append(out, p.Start)
		}
	}
	return out
}

// Pair is one pairing of a round: White's and Black's start numbers, Black
// 0 for the pairing-allocated bye.
type Pair struct{ White, Black int }

// Apply writes a round's pairs into the players' entries (results
// pending, the bye scored U) and gives the players left out, withdrawn or
// absent, an absence ('-' without an opponent). It checks that nobody is
// paired twice or with a player who is not to be paired.
func (e *Event) Apply(r int, pairs []Pair) error {
	if r != e.Played()+1 {
		return fmt.Errorf("round %d: the next round is %d", r, e.Played()+1)
	}
	avail := map[int]bool{}
	for _, s := range e.Available(r) {
		avail[s] = true
	}
	// A round robin's table is fixed: a player who withdrew or asked for a
	// bye keeps his pairing and loses it by forfeit.
	fixed := e.System == RoundRobin || e.System == DoubleRoundRobin
	if fixed {
		for i := range e.Players {
			avail[e.Players[i].Start] = true
		}
	}
	second := e.secondGameAvailable(r, avail)
	seen, err := checkPairs(r, pairs, avail)
	if err != nil {
		return err
	}
	for _, pr := range pairs {
		if pr.Black == 0 {
			e.Player(pr.White).setEntry(r, Entry{Colour: NoColor, Code: PairingBye})
			continue
		}
		wc, bc := Pending, Pending
		if fixed || second {
			wc, bc = e.forfeits(r, pr)
		}
		e.Player(pr.White).setEntry(r, Entry{Opponent: pr.Black, Colour: White, Code: wc})
		e.Player(pr.Black).setEntry(r, Entry{Opponent: pr.White, Colour: Black, Code: bc})
	}
	// Only a Swiss marks the players it left out as absent: a knock-out's
	// players wait between their matches or are out.
	if !e.System.Swiss() && e.System != "" {
		return nil
	}
	e.markAbsent(r, avail, seen)
	return nil
}

// checkPairs checks that every pair is one, of players to be paired (avail)
// each paired once, and returns each player's pair number, 1 first.
func checkPairs(r int, pairs []Pair, avail map[int]bool) (map[int]int, error) {
	seen := map[int]int{}
	for i, pr := range pairs {
		if pr.White == 0 || pr.White == pr.Black {
			return nil, fmt.Errorf("pair %d: %d-%d is not a pairing", i+1, pr.White, pr.Black)
		}
		for _, s := range []int{pr.White, pr.Black} {
			if s == 0 {
				continue
			}
			if !avail[s] {
				return nil, fmt.Errorf("pair %d: player %d is not to be paired in round %d", i+1, s, r)
			}
			if j, dup := seen[s]; dup {
				return nil, fmt.Errorf("pair %d: player %d is already paired in pair %d", i+1, s, j)
			}
			seen[s] = i + 1
		}
	}
	return seen, nil
}

// forfeits returns the codes of a round robin's pair in round r: each
// player who withdrew or asked for a bye loses by forfeit, his opponent
// winning unless away too; pending when both are there.
func (e *Event) forfeits(r int, pr Pair) (wc, bc Code) {
	away := func(s int) bool {
		p := e.Player(s)
		return slices.Contains(e.Withdrawn, s) || !p.Entry(r).None()
	}
	switch aw, ab := away(pr.White), away(pr.Black); {
	case aw && ab:
		return ForfeitLoss, ForfeitLoss
	case aw:
		return ForfeitLoss, ForfeitWin
	case ab:
		return ForfeitWin, ForfeitLoss
	}
	return Pending, Pending
}

// markAbsent gives round r's absence to the players to be paired whom no
// pair has (seen) and to the withdrawn players without an entry.
func (e *Event) markAbsent(r int, avail map[int]bool, seen map[int]int) {
	for s := range avail {
		if _, ok := seen[s]; !ok {
			e.Player(s).setEntry(r, Entry{Colour: NoColor, Code: ForfeitLoss})
		}
	}
	for _, s := range e.Withdrawn {
		if p := e.Player(s); p.Entry(r).None() {
			p.setEntry(r, Entry{Colour: NoColor, Code: ForfeitLoss})
		}
	}
}

// Pairs returns round r's pairs as Apply wrote them, White first, byes
// last, in board order: a round robin's table order; otherwise the higher
// score first, then the lower start number.
func (e *Event) Pairs(r int) []Pair {
	if e.roundRobin() {
		// A round robin's boards are the table's.
		f := Berger
		if e.System == DoubleRoundRobin {
			f = DoubleBerger
		}
		if pairs, err := f(len(e.Players), r); err == nil && r <= e.Played() {
			return pairs
		}
	}
	return e.entered(r)
}

// entered returns round r's pairs as the players' entries have them, in
// Pairs' order for a Swiss.
func (e *Event) entered(r int) []Pair {
	var out []Pair
	for i := range e.Players {
		p := &e.Players[i]
		en := p.Entry(r)
		switch {
		case en.Opponent > 0 && en.Colour == White:
			out = append(out, Pair{p.Start, en.Opponent})
		case en.Code == PairingBye:
			out = append(out, Pair{p.Start, 0})
		}
	}
	score := func(s int) float64 { return e.Score(e.Player(s), r-1) }
	slices.SortStableFunc(out, func(a, b Pair) int {
		if a.Black == 0 && b.Black == 0 { // a team's bye: its players' byes
			return a.White - b.White
		}
		if (a.Black == 0) != (b.Black == 0) {
			if a.Black == 0 {
				return 1
			}
			return -1
		}
		sa, sb := max(score(a.White), score(a.Black)), max(score(b.White), score(b.Black))
		if sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return min(a.White, a.Black) - min(b.White, b.Black)
	})
	return out
}

// Result is a game's result as the arbiter enters it.
type Result string

// The results of a game, White's first.
const (
	WhiteWins     Result = "1-0"
	BlackWins     Result = "0-1"
	Drawn         Result = "1/2"
	WhiteForfeit  Result = "+-" // White won by forfeit
	BlackForfeit  Result = "-+"
	DoubleForfeit Result = "--"
	// Not rated (a knock-out's rapid or blitz tie-break game).
	WhiteWinsUnrated Result = "W-L"
	BlackWinsUnrated Result = "L-W"
	DrawnUnrated     Result = "D-D"
)

// ParseResult reads a result as the arbiter types it: 1-0, 0-1, 1/2 (or
// ½, =, 0.5), +-, -+, --, and W-L, L-W, D-D for unrated games.
func ParseResult(s string) (Result, error) {
	switch strings.TrimSpace(s) {
	case "1-0", "1:0":
		return WhiteWins, nil
	case "0-1", "0:1":
		return BlackWins, nil
	case "1/2", "½", "=", "0.5", "1/2-1/2", "½-½", "=-=":
		return Drawn, nil
	case "+-", "+:-", "+/-":
		return WhiteForfeit, nil
	case "-+", "-:+", "-/+":
		return BlackForfeit, nil
	case "--", "-:-", "-/-":
		return DoubleForfeit, nil
	case "W-L":
		return WhiteWinsUnrated, nil
	case "L-W":
		return BlackWinsUnrated, nil
	case "D-D":
		return DrawnUnrated, nil
	}
	return "", fmt.Errorf("unknown result %q (1-0, 0-1, 1/2, +-, -+, --, W-L, L-W, D-D)", s)
}

func (r Result) codes() (w, b Code) {
	switch r {
	case WhiteWins:
		return Win, Loss
	case BlackWins:
		return Loss, Win
	case Drawn:
		return Draw, Draw
	case WhiteForfeit:
		return ForfeitWin, ForfeitLoss
	case BlackForfeit:
		return ForfeitLoss, ForfeitWin
	case DoubleForfeit:
		return ForfeitLoss, ForfeitLoss
	case WhiteWinsUnrated:
		return WinUnrated, LossUnrated
	case BlackWinsUnrated:
		return LossUnrated, WinUnrated
	case DrawnUnrated:
		return DrawUnrated, DrawUnrated
	}
	return 0, 0
}

// SetResult enters (or corrects) the result of the game of round r that
// player start plays, with White's result first.
func (e *Event) SetResult(r, start int, res Result) error {
	p := e.Player(start)
	if p == nil {
		return fmt.Errorf("no player %d", start)
	}
	en := p.Entry(r)
	if en.Opponent == 0 {
		return fmt.Errorf("player %d has no game in round %d", start, r)
	}
	wc, bc := res.codes()
	if wc == 0 {
		return fmt.Errorf("unknown result %q", res)
	}
	w, b := p, e.Player(en.Opponent)
	if en.Colour == Black {
		w, b = b, w
	}
	we, be := w.Entry(r), b.Entry(r)
	we.Code, be.Code = wc, bc
	w.setEntry(r, we)
	b.setEntry(r, be)
	return nil
}

// Validate checks that the rounds agree: each game appears on both
// players' lines with opposite colours and matching results, nobody plays
// himself, and the pairing-allocated bye has no opponent.
func (e *Event) Validate() error {
	for i := range e.Players {
		p := &e.Players[i]
		if p.Start != i+1 {
			return fmt.Errorf("player %q: start number %d at place %d", p.Name, p.Start, i+1)
		}
		for r, en := range p.Rounds {
			if en.None() || en.Opponent == 0 {
				continue
			}
			q := e.Player(en.Opponent)
			if q == nil || q == p {
				return fmt.Errorf("round %d: player %d's opponent %d is not a player", r+1, p.Start, en.Opponent)
			}
			qe := q.Entry(r + 1)
			if qe.Opponent != p.Start {
				return fmt.Errorf("round %d: player %d plays %d, whose line has %d", r+1, p.Start, q.Start, qe.Opponent)
			}
			if en.Colour == qe.Colour && en.Colour != NoColor {
				return fmt.Errorf("round %d: players %d and %d both have %c", r+1, p.Start, q.Start, en.Colour)
			}
			if !resultsAgree(en.Code, qe.Code) {
				return fmt.Errorf("round %d: players %d and %d have results %c and %c", r+1, p.Start, q.Start, en.Code, qe.Code)
			}
		}
	}
	if e.System == DoubleSwiss {
		return e.checkMatches()
	}
	return nil
}

func resultsAgree(a, b Code) bool {
	pairs := map[Code]Code{Win: Loss, Loss: Win, Draw: Draw, ForfeitWin: ForfeitLoss, WinUnrated: LossUnrated, LossUnrated: WinUnrated, DrawUnrated: DrawUnrated, Pending: Pending}
	if a == ForfeitLoss {
		return b == ForfeitWin || b == ForfeitLoss
	}
	return pairs[a] == b
}
