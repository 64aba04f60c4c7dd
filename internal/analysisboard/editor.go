package analysisboard

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
)

// The position editor (/editor): a board of any ruleset set up stone by
// stone or pasted as a FEN, checked by the rules library (POST
// /api/positions/check), from which the lobby starts an engine game
// (EditorStart) and the analysis board opens.

// maxFEN bounds the FEN the editor reads: the longest real one (2×9 holes
// of 162 stones) is under 100 bytes.
const maxFEN = 256

// editorData is the position editor's form. The board size and the stone
// total come from the ruleset, so that editor.js knows no rule.
type editorData struct {
	Ruleset          string
	Total            int  // the stones of the ruleset
	Tuzdik           bool // whether the ruleset has tuzdiks
	Holes, HolesDesc []int
	White, Black     []int
	Kazan            struct{ W, B int }
	Tuzdiks          struct{ W, B int } // the hole each player owns, 0 for none
	Turn             string             // "white" or "black"
	FEN              string             // the position shown, as the server writes it
	Paste            string             // a FEN the server could not read, shown back
	Error            string
	site.FormChoices
}

func newEditorData(p toguz.Position, full int, c site.FormChoices) editorData {
	r := p.Rules()
	d := editorData{Ruleset: r.String(), Total: r.Total(), Tuzdik: r.Tuzdik, FEN: toguz.FormatFEN(p, full), FormChoices: c}
	st := p.Setup()
	for h := 1; h <= p.Holes(); h++ {
		d.Holes = append(d.Holes, h)
	}
	d.HolesDesc = slices.Clone(d.Holes)
	slices.Reverse(d.HolesDesc)
	d.White, d.Black = st.Board[toguz.White], st.Board[toguz.Black]
	d.Kazan.W, d.Kazan.B = st.Kazan[0], st.Kazan[1]
	d.Tuzdiks.W, d.Tuzdiks.B = st.Tuzdik[0], st.Tuzdik[1]
	d.Turn = st.Turn.String()
	return d
}

// editorPosition reads the editor's form for a board of rules.
func editorPosition(r *http.Request, rules toguz.Rules) (positionRequest, error) {
	req := positionRequest{Ruleset: rules.String(), Turn: r.FormValue("turn")}
	var err error
	for pl, prefix := range []string{"w", "b"} {
		req.Board[pl] = make([]int, rules.Holes)
		for h := 1; h <= rules.Holes; h++ {
			if req.Board[pl][h-1], err = site.FormInt(r, fmt.Sprintf("%s%d", prefix, h)); err != nil {
				return req, err
			}
		}
		if req.Kazan[pl], err = site.FormInt(r, "k"+prefix); err != nil {
			return req, err
		}
		if req.Tuzdik[pl], err = site.FormInt(r, "t"+prefix); err != nil {
			return req, err
		}
	}
	return req, nil
}

// EditorStart reads the position of the editor's form posted to start an
// engine game on a board of rules (POST /lobby/engine with from=editor;
// the lobby creates the game): its FEN. A position the rules refuse, or
// one whose game is over, is answered here, the editor shown again (400)
// with the form as sent and the reason; answered is then true. account
// says whether the player has an account (the form's rated choice).
func (b *Board) EditorStart(w http.ResponseWriter, r *http.Request, rules toguz.Rules, account bool) (fen string, answered bool, err error) {
	preq, err := editorPosition(r, rules)
	var p toguz.Position
	full := 1
	if err == nil {
		p, full, err = b.checkPosition(preq)
	}
	if err == nil && p.IsOver() {
		err = apierr.BadRequest(apierr.CodeBadPosition, "apierr.game_over_position")
	}
	if err == nil {
		return toguz.FormatFEN(p, full), false, nil
	}
	start, serr := toguz.NewPosition(rules)
	if serr != nil {
		return "", false, serr
	}
	d := newEditorData(start, 1, b.kit.Choices(b.kit.Lang(r), rules.String(), account))
	if preq.Board[0] != nil {
		d.White, d.Black = preq.Board[0], preq.Board[1]
		d.Kazan.W, d.Kazan.B = preq.Kazan[0], preq.Kazan[1]
		d.Tuzdiks.W, d.Tuzdiks.B = preq.Tuzdik[0], preq.Tuzdik[1]
		d.Turn = cmp.Or(preq.Turn, d.Turn)
	}
	d.Error = b.kit.Message(r, b.kit.AsError(r, err))
	return "", true, b.kit.Render(w, http.StatusBadRequest, "editor", b.kit.Page(r, "editor.title", d))
}

// pageEditor shows the editor on the starting position of the ruleset
// named by ?ruleset= (the standard game when absent), or on the position
// of ?fen= read under that ruleset by the rules library.
func (b *Board) pageEditor(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	rules, err := site.ParseRuleset(q.Get("ruleset"))
	if err != nil {
		return err
	}
	id := b.kit.Identity(r)
	c := b.kit.Choices(b.kit.Lang(r), rules.String(), id.Account.ID != 0)
	start, err := toguz.NewPosition(rules)
	if err != nil {
		return err
	}
	fen := strings.TrimSpace(q.Get("fen"))
	if fen == "" {
		return b.kit.Render(w, http.StatusOK, "editor", b.kit.Page(r, "editor.title", newEditorData(start, 1, c)))
	}
	var p toguz.Position
	full := 1
	if len(fen) > maxFEN {
		err = apierr.BadRequest(apierr.CodeBadPosition, "apierr.fen_too_long", maxFEN)
	} else if p, full, err = toguz.ParseFEN(fen, rules); err != nil {
		err = b.rulesError(http.StatusBadRequest, apierr.CodeBadPosition, err)
	}
	if err != nil {
		d := newEditorData(start, 1, c)
		d.Error = b.kit.Message(r, b.kit.AsError(r, err))
		if len(fen) <= maxFEN {
			d.Paste = fen // shown back to be mended
		}
		return b.kit.Render(w, http.StatusBadRequest, "editor", b.kit.Page(r, "editor.title", d))
	}
	return b.kit.Render(w, http.StatusOK, "editor", b.kit.Page(r, "editor.title", newEditorData(p, full, c)))
}

type positionRequest struct {
	FEN     string   `json:"fen"`
	Ruleset string   `json:"ruleset"`
	Board   [2][]int `json:"board"`
	Kazan   [2]int   `json:"kazan"`
	Tuzdik  [2]int   `json:"tuzdik"`
	Turn    string   `json:"turn"`
}

// checkPosition validates a position from the editor with toguz.Setup, and
// returns it with its full-move number (the FEN's, 1 for a set-up board).
func (b *Board) checkPosition(req positionRequest) (toguz.Position, int, error) {
	rules, err := site.ParseRuleset(req.Ruleset)
	if err != nil {
		return toguz.Position{}, 0, err
	}
	if req.FEN != "" {
		p, full, err := toguz.ParseFEN(req.FEN, rules)
		if err != nil {
			return p, 0, b.rulesError(http.StatusBadRequest, apierr.CodeBadPosition, err)
		}
		return p, full, nil
	}
	st := toguz.Setup{Rules: rules, Board: req.Board, Kazan: req.Kazan, Tuzdik: req.Tuzdik}
	switch req.Turn {
	case "white", "":
	case "black":
		st.Turn = toguz.Black
	default:
		return toguz.Position{}, 0, apierr.BadRequest(apierr.CodeBadPosition, "apierr.bad_turn", site.Excerpt(req.Turn))
	}
	p, err := st.Position()
	if err != nil {
		return p, 0, b.rulesError(http.StatusBadRequest, apierr.CodeBadPosition, err)
	}
	return p, 1, nil
}

func (b *Board) apiCheckPosition(w http.ResponseWriter, r *http.Request) error {
	var req positionRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	p, full, err := b.checkPosition(req)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"fen": toguz.FormatFEN(p, full), "ok": true, "over": p.IsOver()})
}
