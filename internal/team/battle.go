package team

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/store"
)

// A team battle is lichess's: an arena of internal/events where several
// teams compete; each entrant plays for one of his teams, and a team's
// score is the sum of the arena scores of its best Leaders players. A
// leader of a team makes it with the other teams named by their ids; the
// arena runs as any other (its page, its pairing, its arbiter: the
// maker), and only members of its teams may enter (Admitter).

// Events is what team battles need of the events (*events.Manager).
type Events interface {
	Create(ctx context.Context, creator int64, name string, start time.Time, s events.Settings) (*events.Event, error)
	Get(id string) (*events.Event, bool)
}

// Battles keeps the team battles (internal/store).
type Battles interface {
	CreateTeamBattle(ctx context.Context, b store.TeamBattle) error
	GetTeamBattle(ctx context.Context, event string) (store.TeamBattle, error)
	TeamBattlesOf(ctx context.Context, team string, offset, limit int) ([]store.TeamBattle, error)
	TeamBattlePlayers(ctx context.Context, event string) (map[int64]string, error)
	EnterTeamBattle(ctx context.Context, event string, userID int64) (string, error)
}

// Bounds of team battles.
const (
	MaxBattleTeams  = 10 // teams of one battle
	MaxLeaders      = 20 // best players counted per team
	DefaultLeaders  = 5
	BattlesPerDay   = 5 // battles one account makes a day
	MaxBattleMinute = events.MaxArenaMinutes
)

// BattleForm is what a leader sends to make a team battle.
type BattleForm struct {
	Name    string   `json:"name"`
	TC      string   `json:"tc"`
	Minutes int      `json:"minutes"`
	Teams   []string `json:"teams"`   // the other teams' ids
	Leaders int      `json:"leaders"` // best players counted per team (0: DefaultLeaders)
	Rated   bool     `json:"rated"`
	// StartIn is the minutes until it starts; 0: its maker starts it.
	StartIn int `json:"startIn"`
}

func (s *Service) battles() (Battles, Events, error) {
	b, ok := s.st.(Battles)
	if !ok || s.events == nil {
		return nil, nil, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_battle_off")
	}
	return b, s.events, nil
}

// CreateBattle is a leader's team battle of team id against the teams
// f names: an arena made on the events, its maker its arbiter.
func (s *Service) CreateBattle(ctx context.Context, id string, me int64, f BattleForm) (string, error) {
	bs, evs, err := s.battles()
	if err != nil {
		return "", err
	}
	t, _, err := s.rights(ctx, id, me, true)
	if err != nil {
		return "", err
	}
	teams := []store.BattleTeam{{ID: t.ID, Name: t.Name}}
	for _, other := range f.Teams {
		other = strings.TrimPrefix(strings.TrimSpace(other), "/team/")
		if other == "" || slices.ContainsFunc(teams, func(x store.BattleTeam) bool { return x.ID == other }) {
			continue
		}
		o, err := s.st.GetTeam(ctx, other)
		if errors.Is(err, store.ErrNotFound) {
			return "", noTeam(other)
		}
		if err != nil {
			return "", err
		}
		teams = append(teams, store.BattleTeam{ID: o.ID, Name: o.Name})
	}
	if len(teams) < 2 || len(teams) > MaxBattleTeams {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_battle_teams", MaxBattleTeams)
	}
	if f.Leaders == 0 {
		f.Leaders = DefaultLeaders
	}
	if f.Leaders < 1 || f.Leaders > MaxLeaders {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_battle_leaders", MaxLeaders)
	}
	var start time.Time
	if f.StartIn < 0 || f.StartIn > 7*24*60 {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "apierr.team_battle_start")
	}
	// The bound is counted first: an arena is never left without its battle
	// for want of it.
	if err := s.st.CountTeamWrite(ctx, me, "battle", BattlesPerDay); err != nil {
		return "", storeError(err)
	}
	if f.StartIn > 0 {
		start = time.Now().Add(time.Duration(f.StartIn) * time.Minute)
	}
	e, err := evs.Create(ctx, me, f.Name, start, events.Settings{Kind: events.Arena, Rules: "standard", TC: f.TC, Minutes: f.Minutes,
		Rated: f.Rated, Berserk: true, TeamBattle: true})
	if err != nil {
		return "", events.APIError(err)
	}
	if err := bs.CreateTeamBattle(ctx, store.TeamBattle{EventID: e.ID, TeamID: t.ID, Leaders: f.Leaders, CreatedBy: me, Teams: teams}); err != nil {
		return "", err
	}
	return e.ID, nil
}

// Admitter returns the events' Config.Admit: an account enters a team
// battle only as a member of one of its teams, for which he then plays;
// other events admit anyone.
func Admitter(st Store) func(ctx context.Context, event string, user int64) error {
	return func(ctx context.Context, event string, user int64) error {
		bs, ok := st.(Battles)
		if !ok {
			return nil
		}
		if _, err := bs.GetTeamBattle(ctx, event); errors.Is(err, store.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		_, err := bs.EnterTeamBattle(ctx, event, user)
		if errors.Is(err, store.ErrNotFound) {
			return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.team_battle_member")
		}
		return err
	}
}

// BattlePlayer is a player's line in his team's standing.
type BattlePlayer struct {
	Name   string `json:"name"`
	Score  int    `json:"score"`
	Counts bool   `json:"counts"` // among the team's best Leaders
}

// BattleLine is a team's line of a battle's standings.
type BattleLine struct {
	Rank    int            `json:"rank"`
	TeamID  string         `json:"id"`
	Name    string         `json:"name"`
	Score   int            `json:"score"`
	Players []BattlePlayer `json:"players"` // best first
}

// Battle is a team battle with its event and standings.
type Battle struct {
	store.TeamBattle
	Event *events.Event
	Lines []BattleLine
}

// BattleScore ranks battle b's teams by the arena's standings: each
// team's score is the sum of its best b.Leaders players' scores; ties
// keep the same rank and are listed by name.
func BattleScore(b store.TeamBattle, arena []events.ArenaLine, teamOf map[int64]string) []BattleLine {
	byTeam := map[string]*BattleLine{}
	var lines []*BattleLine
	for _, t := range b.Teams {
		l := &BattleLine{TeamID: t.ID, Name: t.Name}
		byTeam[t.ID] = l
		lines = append(lines, l)
	}
	for _, a := range arena { // best first
		l := byTeam[teamOf[a.Entry.UserID]]
		if l == nil {
			continue // entered before the battle knew him: plays for none
		}
		counts := len(l.Players) < b.Leaders
		if counts {
			l.Score += a.Score
		}
		l.Players = append(l.Players, BattlePlayer{Name: a.Entry.Name, Score: a.Score, Counts: counts})
	}
	slices.SortStableFunc(lines, func(x, y *BattleLine) int {
		return cmp.Or(y.Score-x.Score, cmp.Compare(x.Name, y.Name))
	})
	out := make([]BattleLine, len(lines))
	for i, l := range lines {
		l.Rank = i + 1
		if i > 0 && l.Score == lines[i-1].Score {
			l.Rank = out[i-1].Rank
		}
		out[i] = *l
	}
	return out
}

// Battle returns the battle of event id with its standings now.
func (s *Service) Battle(ctx context.Context, id string) (Battle, error) {
	bs, evs, err := s.battles()
	if err != nil {
		return Battle{}, err
	}
	b, err := bs.GetTeamBattle(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Battle{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_battle_none", excerpt(id))
	}
	if err != nil {
		return Battle{}, err
	}
	e, ok := evs.Get(id)
	if !ok {
		return Battle{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.team_battle_none", excerpt(id))
	}
	teamOf, err := bs.TeamBattlePlayers(ctx, id)
	if err != nil {
		return Battle{}, err
	}
	// A battle's arena publishes its results as they come (CreateBattle
	// makes it so): the standings read all of it.
	return Battle{TeamBattle: b, Event: e, Lines: BattleScore(b, events.ArenaScore(e, 0), teamOf)}, nil
}

// BattlesOf returns limit battles team id plays in from offset, the
// newest first, with their standings.
func (s *Service) BattlesOf(ctx context.Context, id string, offset, limit int) ([]Battle, error) {
	bs, ok := s.st.(Battles)
	if !ok || s.events == nil {
		return nil, nil // no events: no battles
	}
	list, err := bs.TeamBattlesOf(ctx, id, offset, limit)
	if err != nil {
		return nil, err
	}
	var out []Battle
	for _, b := range list {
		x, err := s.Battle(ctx, b.EventID)
		if err != nil {
			continue // its event is gone
		}
		out = append(out, x)
	}
	return out, nil
}
