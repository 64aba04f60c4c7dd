package archive

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
)

// The export of a stored game: GET /api/games/{id}/export writes its
// record in one of the formats of the rules library (docs/api.md); an
// imported game keeps its record's tags.

// Record returns the game record of a stored game, with its tags: what
// its export writes, and what the analysis board opens.
func (a *Site) Record(ctx context.Context, id string) (*toguz.Game, game.Saved, error) {
	saved, err := a.cfg.Store.Game(ctx, id)
	if errors.Is(err, live.ErrNotFound) {
		return nil, saved, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_game", site.Excerpt(id))
	}
	if err != nil {
		return nil, saved, err
	}
	start, startMove, err := saved.Start()
	if err != nil {
		return nil, saved, err
	}
	moves := make([]toguz.Move, len(saved.Moves))
	for i, m := range saved.Moves {
		moves[i] = m.Hole
	}
	g, err := toguz.NewGame(start, moves...)
	if err != nil {
		return nil, saved, err
	}
	g.StartMove = startMove
	if tags, err := a.cfg.Store.Tags(ctx, id); err != nil {
		return nil, saved, err
	} else if len(tags) > 0 {
		// An imported game is exported with its record's tags (the ones
		// with a meaning, Result, FEN and the like, are written from the
		// game itself).
		g.Tags = tags
		if saved.End != nil {
			g.Result, g.Termination = saved.End.Result, saved.End.Termination
		}
		return g, saved, nil
	}
	g.SetTag("Event", "toguz online game")
	g.SetTag("Site", "toguz")
	g.SetTag("Date", saved.Created.UTC().Format("2006.01.02"))
	g.SetTag("White", saved.White.Name)
	g.SetTag("Black", saved.Black.Name)
	if tc := saved.TC; tc.Kind() != clock.Unlimited {
		g.SetTag("TimeControl", tc.String())
	}
	g.SetTag("ID", saved.ID)
	if saved.End != nil {
		g.Result, g.Termination = saved.End.Result, saved.End.Termination
	}
	return g, saved, nil
}

// exportFormat returns the format of an export format name (docs/api.md):
// "record" is our own format, which the game page calls "toguz", the rules
// library's name for it.
func exportFormat(name string) (toguz.Format, bool) {
	switch strings.ToLower(name) {
	case "record", "toguz":
		return toguz.FormatToguz, true
	case "tgk":
		return toguz.FormatTGK, true
	case "playstrategy":
		return toguz.FormatPlayStrategy, true
	case "playok":
		return toguz.FormatPlayOK, true
	}
	return 0, false
}

func (a *Site) apiExport(w http.ResponseWriter, r *http.Request) error {
	name := cmp.Or(r.URL.Query().Get("format"), "record")
	f, ok := exportFormat(name)
	if !ok {
		return apierr.BadRequest(apierr.CodeBadFormat, "apierr.bad_format", site.Excerpt(name))
	}
	g, _, err := a.Record(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := toguz.WriteGames(&b, f, g); errors.Is(err, toguz.ErrUnwritable) {
		// PlayOK and TGK hold only standard games from the start.
		return a.cfg.RulesError(http.StatusBadRequest, apierr.CodeBadFormat, err)
	} else if err != nil {
		return err
	}
	ext := map[toguz.Format]string{toguz.FormatToguz: "pgn", toguz.FormatPlayOK: "pgn", toguz.FormatTGK: "tgk", toguz.FormatPlayStrategy: "txt"}[f]
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", r.PathValue("id")+"."+ext))
	_, err = w.Write(b.Bytes())
	return err
}
