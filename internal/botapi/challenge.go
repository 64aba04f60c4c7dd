package botapi

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// challenge is a challenge of one user to another, open until answered,
// cancelled or expired. Challenges live in memory, as seeks do.
type challenge struct {
	ID       string
	By, To   challengeUser
	TC       clock.TimeControl
	Rated    bool
	Color    string // the challenger's: white, black or random
	Rules    toguz.Rules
	Created  time.Time
	Status   string // created, accepted, declined, canceled
	GameID   string
	Declined string // the reason of a decline
	Home     string // the node it lives on ("": one node; nodes.go)
}

type challengeUser struct {
	ID   int64
	Name string
	Bot  bool
}

func (u challengeUser) json(rating int) map[string]any {
	j := map[string]any{"id": strings.ToLower(u.Name), "name": u.Name, "rating": rating}
	if u.Bot {
		j["title"] = "BOT"
	}
	return j
}

type challengeEvent struct {
	Type      string         `json:"type"`
	Challenge map[string]any `json:"challenge"`
}

// json is the challenge as lichess writes one.
func (c *challenge) json() map[string]any {
	j := map[string]any{"id": c.ID, "url": "/api/challenge/" + c.ID, "status": c.Status,
		"challenger": c.By.json(0), "destUser": c.To.json(0), "rated": c.Rated, "color": c.Color,
		"variant": keyJSON{Key: c.Rules.String()}, "ruleset": c.Rules.String(), "tc": tcOrNone(c.TC)}
	switch c.TC.Kind() {
	case clock.Unlimited:
		j["timeControl"] = map[string]any{"type": "unlimited"}
		j["speed"] = "unlimited"
	case clock.Correspondence:
		j["timeControl"] = map[string]any{"type": "correspondence", "daysPerTurn": c.TC.Days}
		j["speed"] = "correspondence"
	default:
		j["timeControl"] = map[string]any{"type": "clock", "limit": int(c.TC.Base.Seconds()),
			"increment": int(c.TC.Increment.Seconds()), "show": c.TC.String()}
		cat, _ := live.Category(c.TC)
		j["speed"] = cat.String()
	}
	if c.GameID != "" {
		j["gameId"] = c.GameID
	}
	if c.Declined != "" {
		j["declineReason"] = c.Declined
	}
	return j
}

func tcOrNone(tc clock.TimeControl) string {
	if tc.Kind() == clock.Unlimited {
		return "none"
	}
	return tc.String()
}

// challenges holds the open challenges.
//
// Locking: mu guards every field below it.
type challenges struct {
	max    int
	expiry time.Duration
	now    func() time.Time

	mu     sync.Mutex
	m      map[string]*challenge
	byBy   map[int64]int         // open challenges per challenger
	nodes  *botNodes             // nil: one node
	copies map[string]*challenge // other nodes' open challenges
	// ended: the challenges, here or copies, that were answered,
	// cancelled or expired, for an expiry's time, numbered in the order
	// they ended (endSeq the last): an event stream leaves out a queued
	// "challenge" event of one that had ended when it listed the open
	// ones (a client is not told an accepted challenge is open).
	ended  map[string]endedAt
	endSeq uint64
}

type endedAt struct {
	at  time.Time
	seq uint64
}

// endLocked notes that challenge id ended.
func (cs *challenges) endLocked(id string) {
	cs.endSeq++
	cs.ended[id] = endedAt{at: cs.now(), seq: cs.endSeq}
}

func newChallenges(max int, expiry time.Duration, now func() time.Time) *challenges {
	return &challenges{max: max, expiry: expiry, now: now, m: map[string]*challenge{}, byBy: map[int64]int{},
		copies: map[string]*challenge{}, ended: map[string]endedAt{}}
}

// sweepLocked removes the expired challenges and returns them.
func (cs *challenges) sweepLocked() []*challenge {
	var gone []*challenge
	now := cs.now()
	for id, c := range cs.m {
		if now.Sub(c.Created) >= cs.expiry {
			gone = append(gone, c)
			cs.removeLocked(id)
		}
	}
	for id, c := range cs.copies {
		if now.Sub(c.Created) >= cs.expiry {
			delete(cs.copies, id) // its home tells its sides
			cs.endLocked(id)
		}
	}
	for id, e := range cs.ended {
		if now.Sub(e.at) >= cs.expiry {
			delete(cs.ended, id)
		}
	}
	return gone
}

func (cs *challenges) removeLocked(id string) {
	c, ok := cs.m[id]
	if !ok {
		return
	}
	delete(cs.m, id)
	cs.endLocked(id)
	if cs.byBy[c.By.ID]--; cs.byBy[c.By.ID] <= 0 {
		delete(cs.byBy, c.By.ID)
	}
}

// add opens c; false when its challenger has the most open already. It
// returns the challenges that expired meanwhile.
func (cs *challenges) add(c *challenge) (bool, []*challenge) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	gone := cs.sweepLocked()
	if cs.byBy[c.By.ID] >= cs.max {
		return false, gone
	}
	c.ID, c.Created, c.Status = live.NewID(), cs.now(), "created"
	if cs.nodes != nil {
		c.Home = cs.nodes.node
	}
	cs.m[c.ID] = c
	cs.byBy[c.By.ID]++
	return true, gone
}

// take removes and returns challenge id for user uid's answer what
// (accept, decline, cancel) if it is his to give: here, or on its home
// node. A challenge not his is not found, and stays.
func (cs *challenges) take(ctx context.Context, id string, uid int64, what string) (*challenge, error) {
	cs.mu.Lock()
	_, local := cs.m[id]
	cp, remote := cs.copies[id]
	n := cs.nodes
	cs.mu.Unlock()
	if !local && remote && n != nil {
		c, err := n.takeRemote(ctx, cp.Home, id, uid, what)
		if err == nil {
			cs.mu.Lock()
			cs.endLocked(id)
			cs.mu.Unlock()
		}
		return c, err
	}
	return cs.takeLocal(id, mineCheck(id, uid, what))
}

// takeLocal removes and returns this node's challenge id if check allows
// it (check's error is returned otherwise, and the challenge stays), and
// tells the other nodes it is gone.
func (cs *challenges) takeLocal(id string, check func(*challenge) error) (*challenge, error) {
	cs.mu.Lock()
	cs.sweepLocked()
	c, ok := cs.m[id]
	if !ok {
		cs.mu.Unlock()
		return nil, errNoChallenge(id)
	}
	if err := check(c); err != nil {
		cs.mu.Unlock()
		return nil, err
	}
	cs.removeLocked(id)
	n := cs.nodes
	cs.mu.Unlock()
	n.publishNote(challengeNote{Op: "gone", ID: id})
	cp := *c
	return &cp, nil
}

// endedBy reports whether challenge id had ended (answered, cancelled or
// expired, within an expiry's time) when the seq'th ended.
func (cs *challenges) endedBy(id string, seq uint64) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	e, ok := cs.ended[id]
	return ok && e.seq <= seq
}

// of returns the open challenges made by or to user uid, oldest first.
func (cs *challenges) of(uid int64) []*challenge {
	out, _ := cs.ofNow(uid)
	return out
}

// ofNow is of, and the number of the last challenge that had ended then
// (endedBy).
func (cs *challenges) ofNow(uid int64) ([]*challenge, uint64) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.sweepLocked()
	var out []*challenge
	for _, m := range []map[string]*challenge{cs.m, cs.copies} {
		for _, c := range m {
			if c.By.ID == uid || c.To.ID == uid {
				cp := *c
				out = append(out, &cp)
			}
		}
	}
	slices.SortFunc(out, func(a, b *challenge) int { return a.Created.Compare(b.Created) })
	return out, cs.endSeq
}

// challengeForm reads a challenge's fields, lichess's (clock.limit and
// clock.increment in seconds, days, rated, color, variant) or ours (tc,
// ruleset), from the form or the query.
func challengeForm(r *http.Request) (clock.TimeControl, bool, string, toguz.Rules, error) {
	tc, err := challengeClock(r)
	if err != nil {
		return tc, false, "", toguz.Rules{}, err
	}
	rated, _ := strconv.ParseBool(cmp.Or(r.FormValue("rated"), "false"))
	color := cmp.Or(r.FormValue("color"), "random")
	if color != "white" && color != "black" && color != "random" {
		return tc, false, "", toguz.Rules{}, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_color", site.Excerpt(color))
	}
	if rated && tc.Kind() == clock.Unlimited {
		return tc, false, "", toguz.Rules{}, apierr.BadRequest(apierr.CodeBadTC, "err.bad_tc").WithDetail(errors.New("rated games need a clock"))
	}
	rules, err := site.ParseRuleset(cmp.Or(r.FormValue("ruleset"), r.FormValue("variant")))
	return tc, rated, color, rules, err
}

// challengeClock reads a challenge's time control: tc, or clock.limit
// and clock.increment, or days; none of them is none.
func challengeClock(r *http.Request) (clock.TimeControl, error) {
	switch {
	case r.FormValue("tc") != "":
		return site.ParseTC(r.FormValue("tc"))
	case r.FormValue("clock.limit") != "":
		limit, e1 := strconv.Atoi(r.FormValue("clock.limit"))
		inc, e2 := strconv.Atoi(cmp.Or(r.FormValue("clock.increment"), "0"))
		if e1 != nil || e2 != nil || limit < 0 || inc < 0 || limit > 3*3600 || inc > 180 {
			return clock.TimeControl{}, apierr.BadRequest(apierr.CodeBadTC, "apierr.bot.bad_clock")
		}
		tc := clock.TimeControl{Base: time.Duration(limit) * time.Second, Increment: time.Duration(inc) * time.Second}
		if err := tc.Validate(); err != nil {
			return tc, apierr.BadRequest(apierr.CodeBadTC, "apierr.bad_tc", tc.String()).WithDetail(err)
		}
		return tc, nil
	case r.FormValue("days") != "":
		return site.ParseTC(r.FormValue("days") + "d")
	}
	return clock.TimeControl{}, nil
}

// apiChallenge is POST /api/challenge/{name}: challenge a user.
func (a *API) apiChallenge(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r, ScopeChallengeWrite, ScopeBotPlay, ScopeBoardPlay)
	if err != nil {
		return err
	}
	name := r.PathValue("name")
	if strings.EqualFold(name, c.tok.UserName) {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bot.challenge_self")
	}
	tc, rated, color, rules, err := challengeForm(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	u, err := a.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return errNoUser(name)
	} else if err != nil {
		return err
	}
	if a.priv != nil {
		// The challenged's privacy settings read the challenger's rating
		// in the challenge's category (-1: his best).
		rated := -1
		if cat, ok := live.Category(tc); ok {
			if p, err := a.st.Perf(ctx, c.tok.UserID, cat); err == nil && p.Games > 0 {
				rated = int(p.Rating.Rating + 0.5)
			}
		}
		if err := a.priv.MayChallenge(ctx, c.tok.UserID, u.ID, rated); err != nil {
			return err
		}
	}
	bot, err := a.st.IsBot(ctx, u.ID)
	if err != nil {
		return err
	}
	ch := &challenge{By: challengeUser{ID: c.tok.UserID, Name: c.tok.UserName, Bot: c.tok.Bot}, To: challengeUser{ID: u.ID, Name: u.Name, Bot: bot},
		TC: tc, Rated: rated, Color: color, Rules: rules}
	ok, gone := a.chals.add(ch)
	a.tellExpired(gone)
	if !ok {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.bot.challenges", a.limits.Challenges)
	}
	// The copy goes before the events, so that a node that hears of the
	// challenge knows it.
	wire := wireOf(ch)
	a.chals.notes().publishNote(challengeNote{Op: "open", Ch: &wire})
	// The challenger's first: the challenged may accept at once (on
	// another node, too), and the challenger's gameStart must not come
	// before the challenge, nor the challenge be told open after it.
	ev := challengeEvent{Type: "challenge", Challenge: ch.json()}
	a.events.send(ch.By.ID, ev)
	a.events.send(ch.To.ID, ev)
	if a.notify != nil && !bot {
		if err := a.notify.Send(ctx, notify.Notice{To: u.ID, Actor: c.tok.UserID, Kind: notify.Challenge, Key: "notify.challenge",
			Args: []any{c.tok.UserName}, URL: "/@/" + c.tok.UserName}); err != nil {
			a.kit.Logger().Warn("challenge notice", "err", err)
		}
	}
	return site.WriteJSON(w, http.StatusOK, ch.json())
}

// tellExpired tells both sides of each expired challenge that it is gone.
func (a *API) tellExpired(gone []*challenge) {
	for _, c := range gone {
		a.chals.notes().publishNote(challengeNote{Op: "gone", ID: c.ID})
		c.Status = "canceled"
		ev := challengeEvent{Type: "challengeCanceled", Challenge: c.json()}
		a.events.send(c.By.ID, ev)
		a.events.send(c.To.ID, ev)
	}
}

// apiChallenges is GET /api/challenge: {"in": […], "out": […]}.
func (a *API) apiChallenges(w http.ResponseWriter, r *http.Request) error {
	c, err := a.botAuth(r, ScopeChallengeRead, ScopeBotPlay, ScopeBoardPlay)
	if err != nil {
		return err
	}
	in, out := []map[string]any{}, []map[string]any{}
	for _, ch := range a.chals.of(c.tok.UserID) {
		if ch.To.ID == c.tok.UserID {
			in = append(in, ch.json())
		} else {
			out = append(out, ch.json())
		}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"in": in, "out": out})
}

// apiChallengeAnswer is POST /api/challenge/{id}/{accept,decline,cancel}:
// the challenged accepts (the game starts, both are told on their event
// streams) or declines, the challenger cancels.
func (a *API) apiChallengeAnswer(what string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		c, err := a.botAuth(r, ScopeChallengeWrite, ScopeBotPlay, ScopeBoardPlay)
		if err != nil {
			return err
		}
		ch, err := a.chals.take(r.Context(), r.PathValue("id"), c.tok.UserID, what)
		if err != nil {
			return err
		}
		switch what {
		case "decline":
			ch.Status, ch.Declined = "declined", cmp.Or(r.FormValue("reason"), "generic")
			ev := challengeEvent{Type: "challengeDeclined", Challenge: ch.json()}
			a.events.send(ch.By.ID, ev)
			a.events.send(ch.To.ID, ev)
			return okJSON(w)
		case "cancel":
			ch.Status = "canceled"
			ev := challengeEvent{Type: "challengeCanceled", Challenge: ch.json()}
			a.events.send(ch.To.ID, ev)
			a.events.send(ch.By.ID, ev)
			return okJSON(w)
		}
		gid, err := a.acceptChallenge(r.Context(), ch)
		if err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "gameId": gid})
	}
}

// acceptChallenge starts the game of the accepted challenge ch, with the
// players' ratings in its category (the bots' when either is a bot), and
// returns its id.
func (a *API) acceptChallenge(ctx context.Context, ch *challenge) (string, error) {
	botGame := ch.By.Bot || ch.To.Bot
	by := a.botSeat(ctx, ch.By.ID, ch.By.Name, ch.TC, botGame)
	to := a.botSeat(ctx, ch.To.ID, ch.To.Name, ch.TC, botGame)
	spec := game.Spec{Rules: ch.Rules, TC: ch.TC, Rated: ch.Rated, White: by, Black: to}
	if ch.Color == "black" || (ch.Color == "random" && rand.Text()[0]%2 == 1) {
		spec.White, spec.Black = to, by
	}
	return a.startBotGame(ctx, spec, "friend")
}

// WithdrawUser cancels every open challenge to or from user uid (his
// account closes), on every node, and tells both sides.
func (a *API) WithdrawUser(uid int64) {
	a.chals.notes().publishNote(challengeNote{Op: "withdraw", UID: uid})
	a.withdrawLocal(uid)
}

// notes returns the cluster's part (nil: one node).
func (cs *challenges) notes() *botNodes {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.nodes
}

// withdrawLocal is WithdrawUser on this node's challenges.
func (a *API) withdrawLocal(uid int64) {
	a.chals.mu.Lock()
	var gone []*challenge
	for id, c := range a.chals.m {
		if c.By.ID == uid || c.To.ID == uid {
			gone = append(gone, c)
			a.chals.removeLocked(id)
		}
	}
	a.chals.mu.Unlock()
	a.tellExpired(gone)
}
