package privacy

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// The download of all of an account's data, GET the page and POST the
// archive at /account/export: one zip, written to the response as it is
// read from the store (a page of games at a time), never whole in memory.
// Its entries:
//
//	README.txt            what each entry holds
//	profile.json          the account: name, since, language
//	settings.json         privacy settings, kid mode, the blocked users
//	ratings.json          the ratings now, per category
//	rating-history.json   every step of the ratings, per category
//	games.pgn             every game played, as records (our format)
//	studies/<id>.pgn      each study the account owns: its chapters' records
//	reports.json          the chat reports the account made
//	following.json        the players it follows
//	messages.json         its conversations
//	notifications.json    its notices

// exportGamesPage is how many games are read from the store at a time.
const exportGamesPage = 200

// exportTimeout bounds the writing of one archive (a slow reader holds
// its slot no longer).
const exportTimeout = 10 * time.Minute

type exportData struct{ PerDay int }

func (s *Service) pageExport(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.account(r); err != nil {
		return site.Redirect(w, r, "/login")
	}
	return s.kit.Render(w, http.StatusOK, "export", s.kit.Page(r, "privacy.export.title", exportData{PerDay: s.cfg.ExportsPerDay}))
}

// begin takes the account's export slot: one export at a time per
// account (on this node) and ExportsPerDay a day (in the store).
func (s *Service) begin(ctx context.Context, userID int64) (func(), error) {
	s.mu.Lock()
	if s.exporting[userID] {
		s.mu.Unlock()
		return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "privacy.err.export_busy")
	}
	s.exporting[userID] = true
	s.mu.Unlock()
	release := func() {
		s.mu.Lock()
		delete(s.exporting, userID)
		s.mu.Unlock()
	}
	if err := s.st.StartDataExport(ctx, userID, s.cfg.ExportsPerDay); err != nil {
		release()
		if errors.Is(err, store.ErrLimit) {
			return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "privacy.err.export_day", s.cfg.ExportsPerDay)
		}
		return nil, err
	}
	return release, nil
}

// downloadExport is POST /account/export: the archive of all the data.
func (s *Service) downloadExport(w http.ResponseWriter, r *http.Request) error {
	acc, err := s.account(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), exportTimeout)
	defer cancel()
	release, err := s.begin(ctx, acc.ID)
	if err != nil {
		return err
	}
	defer release()
	u, err := s.st.UserByID(ctx, acc.ID)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("toguz-%s-%s.zip", asciiName(u.Name, u.ID), time.Now().UTC().Format("2006-01-02"))
	// The server's write timeout bounds a page; an archive gets the
	// export's own bound instead.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(exportTimeout))
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	// From here the answer has begun: an error cuts the archive short
	// (its reader finds no central directory) and is logged.
	if err := s.WriteExport(ctx, w, u); err != nil {
		s.log.Warn("data export", "user", u.ID, "err", err)
	}
	return nil
}

// asciiName is the name for a file name: the account's if it is plain
// ASCII, else its id.
func asciiName(name string, id int64) string {
	for _, r := range name {
		if r > 127 {
			return fmt.Sprint("u", id)
		}
	}
	return name
}

// WriteExport writes the zip of user u's data to w.
func (s *Service) WriteExport(ctx context.Context, w io.Writer, u store.User) error {
	z := zip.NewWriter(w)
	at := time.Now().UTC()
	file := func(name string) (io.Writer, error) {
		return z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: at})
	}
	putJSON := func(name string, v any) error {
		f, err := file(name)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(f)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	if f, err := file("README.txt"); err != nil {
		return err
	} else if _, err := io.WriteString(f, readme); err != nil {
		return err
	}
	if err := putJSON("profile.json", map[string]any{"id": u.ID, "name": u.Name, "created": u.Created, "lang": u.Lang}); err != nil {
		return err
	}
	set, err := s.Settings(ctx, u.ID)
	if err != nil {
		return err
	}
	blocks, err := s.st.Blocks(ctx, u.ID)
	if err != nil {
		return err
	}
	blocked := []map[string]any{}
	for _, b := range blocks {
		blocked = append(blocked, map[string]any{"name": b.Name, "since": b.Created})
	}
	if err := putJSON("settings.json", map[string]any{"lang": u.Lang, "challenge": set.Challenge, "challenge_rating": set.ChallengeRating,
		"message": set.Message, "follow": set.Follow, "online": set.Online, "kid": set.Kid, "kid_locked_by_coach": set.KidLockedBy != 0,
		"blocked": blocked}); err != nil {
		return err
	}
	perfs, err := s.st.Perfs(ctx, u.ID)
	if err != nil {
		return err
	}
	ratings := map[string]any{}
	history := map[string]any{}
	for _, p := range perfs {
		if p.Games == 0 {
			continue
		}
		ratings[p.Category.String()] = map[string]any{"rating": p.Rating.Rating, "rd": p.RD, "volatility": p.Volatility, "games": p.Games, "updated": p.Updated}
	}
	for _, c := range rating.Categories {
		h, err := s.st.RatingHistory(ctx, u.ID, c)
		if err != nil {
			return err
		}
		if len(h) == 0 {
			continue
		}
		steps := make([]map[string]any, len(h))
		for i, p := range h {
			steps[i] = map[string]any{"at": p.At, "game": p.GameID, "rating": p.Rating.Rating, "rd": p.RD}
		}
		history[c.String()] = steps
	}
	if err := putJSON("ratings.json", ratings); err != nil {
		return err
	}
	if err := putJSON("rating-history.json", history); err != nil {
		return err
	}
	if err := s.writeGames(ctx, u.ID, file); err != nil {
		return err
	}
	if err := s.writeStudies(ctx, u.ID, file); err != nil {
		return err
	}
	reports, err := s.st.ReportsBy(ctx, fmt.Sprint("u:", u.ID), 10000)
	if err != nil {
		return err
	}
	rs := []map[string]any{}
	for _, r := range reports {
		rs = append(rs, map[string]any{"at": r.Created, "user": r.Reported, "game": r.GameID, "room": r.Room, "message": r.Message})
	}
	if err := putJSON("reports.json", rs); err != nil {
		return err
	}
	if err := s.writeCommunity(ctx, u.ID, putJSON); err != nil {
		return err
	}
	return z.Close()
}

// writeCommunity writes the players the account follows, its
// conversations and its notices.
func (s *Service) writeCommunity(ctx context.Context, user int64, putJSON func(string, any) error) error {
	fs, err := s.st.Following(ctx, user, store.MaxFollows, 0)
	if err != nil {
		return err
	}
	follows := []map[string]any{}
	for _, f := range fs {
		follows = append(follows, map[string]any{"name": f.Name, "since": f.Since})
	}
	if err := putJSON("following.json", follows); err != nil {
		return err
	}
	convs := []map[string]any{}
	for off := 0; ; off += exportGamesPage {
		cs, err := s.st.Conversations(ctx, user, exportGamesPage, off)
		if err != nil {
			return err
		}
		for _, c := range cs {
			msgs := []map[string]any{}
			for moff := 0; ; moff += exportGamesPage {
				ms, err := s.st.Thread(ctx, user, c.OtherID, exportGamesPage, moff)
				if err != nil {
					return err
				}
				for _, m := range ms {
					msgs = append(msgs, map[string]any{"at": m.Created, "mine": m.SenderID == user, "text": m.Body})
				}
				if len(ms) < exportGamesPage {
					break
				}
			}
			convs = append(convs, map[string]any{"with": c.OtherName, "messages": msgs})
		}
		if len(cs) < exportGamesPage {
			break
		}
	}
	if err := putJSON("messages.json", convs); err != nil {
		return err
	}
	ns, err := s.st.Notifications(ctx, user, store.MaxNotifications, 0)
	if err != nil {
		return err
	}
	notices := []map[string]any{}
	for _, n := range ns {
		notices = append(notices, map[string]any{"at": n.Created, "kind": n.Kind, "text": n.Key, "args": json.RawMessage(n.Args), "url": n.URL, "read": !n.Read.IsZero()})
	}
	return putJSON("notifications.json", notices)
}

// writeGames writes games.pgn a page of games at a time.
func (s *Service) writeGames(ctx context.Context, user int64, file func(string) (io.Writer, error)) error {
	f, err := file("games.pgn")
	if err != nil || s.cfg.Record == nil {
		return err
	}
	gw := toguz.NewGameWriter(f, toguz.FormatToguz)
	for off := 0; ; off += exportGamesPage {
		gs, err := s.st.GamesByUser(ctx, user, exportGamesPage, off)
		if err != nil {
			return err
		}
		for _, g := range gs {
			rec, err := s.cfg.Record(ctx, g.ID)
			if err == nil {
				err = gw.Write(rec)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				// One game that will not replay does not cost the rest.
				s.log.Warn("data export: game", "game", g.ID, "err", err)
			}
		}
		if len(gs) < exportGamesPage {
			return nil
		}
	}
}

// writeStudies writes studies/<id>.pgn for each study the account owns.
func (s *Service) writeStudies(ctx context.Context, userID int64, file func(string) (io.Writer, error)) error {
	studies, err := s.st.OwnStudies(ctx, userID)
	if err != nil {
		return err
	}
	for _, st := range studies {
		_, records, err := s.st.Chapters(ctx, st.ID)
		if err != nil {
			return err
		}
		f, err := file("studies/" + st.ID + ".pgn")
		if err != nil {
			return err
		}
		for i, rec := range records {
			if i > 0 {
				if _, err := io.WriteString(f, "\n"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(f, strings.TrimRight(rec, "\n")+"\n"); err != nil {
				return err
			}
		}
	}
	return nil
}

const readme = `Your data on toguz.

profile.json          your account: name, since when, language
settings.json         your privacy settings, kid mode, the users you block
ratings.json          your ratings now, per category
rating-history.json   every change of your ratings, per category
games.pgn             every game you played, as records (toguz's record format)
studies/<id>.pgn      each study you own: its chapters' records
reports.json          the chat messages you reported
following.json        the players you follow
messages.json         your conversations, each message newest first
notifications.json    your notifications (their text as a key of the site's texts, with its arguments)
`
