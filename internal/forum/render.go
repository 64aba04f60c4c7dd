package forum

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/svg"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// A post's text is Markdown (CommonMark with GitHub's tables, strike-
// through, task lists and bare links). Two things in it are drawn by the
// site in its place:
//
//   - a board: a fenced block whose info word is "board", holding a
//     position string (the site's, as the position editor writes it); the
//     info's second word names a ruleset other than the standard one:
//
//     ```board
//     9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1
//     ```
//
//   - a game: a link to a game of this site (/game/ID, or the site's full
//     address of it) alone on its line, or a fenced block "game" holding
//     one (or the game's id): its final position, its players and result,
//     with a link to it.
//
// Bad input draws its error in its place; the rest of the post is shown.

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// policy is bluemonday's policy for user content: no script, no style,
// links marked nofollow and opened without the opener.
var policy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}()

// kidPolicy is policy without links or images: an account in kid mode is
// shown no link and nothing loaded from a post (its embeds are the site's).
var kidPolicy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowRelativeURLs(false)
	for _, scheme := range []string{"http", "https", "mailto"} {
		p.AllowURLSchemeWithCustomPolicy(scheme, func(*url.URL) bool { return false })
	}
	return p
}()

// gamePath is a game's page on the site.
var gamePath = regexp.MustCompile(`^/game/([A-Za-z0-9]{1,32})/?$`)

// embed is one board or game a post draws.
type embed struct {
	kind string // board, game
	arg  string // the position string, or the game's link or id
	rule string // a board's ruleset ("": standard)
}

// gameID returns the game a link names: /game/ID on this site (host, or
// no host; "*": any host); ok is false for any other link.
func gameID(link, host string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil {
		return "", false
	}
	if u.Host != "" && host != "*" && (host == "" || !strings.EqualFold(u.Host, host)) {
		return "", false
	}
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return "", false
	}
	m := gamePath.FindStringSubmatch(u.Path)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// findEmbeds returns the nodes of doc that are embeds, with what they draw.
func findEmbeds(doc ast.Node, src []byte, host string) (nodes []ast.Node, embeds []embed) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			info := ""
			if n.Info != nil {
				info = string(n.Info.Segment.Value(src))
			}
			words := strings.Fields(info)
			if len(words) == 0 || (words[0] != "board" && words[0] != "game") {
				return ast.WalkSkipChildren, nil
			}
			var body bytes.Buffer
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				body.Write(seg.Value(src))
			}
			e := embed{kind: words[0], arg: strings.TrimSpace(body.String())}
			if len(words) > 1 {
				e.rule = words[1]
			}
			nodes, embeds = append(nodes, n), append(embeds, e)
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph:
			if n.ChildCount() != 1 {
				return ast.WalkSkipChildren, nil
			}
			var link string
			switch c := n.FirstChild().(type) {
			case *ast.AutoLink:
				link = string(c.URL(src))
			case *ast.Link:
				link = string(c.Destination)
			case *ast.Text:
				link = string(c.Segment.Value(src)) // a path alone: /game/ID
			default:
				return ast.WalkSkipChildren, nil
			}
			if _, ok := gameID(link, host); ok {
				nodes, embeds = append(nodes, n), append(embeds, embed{kind: "game", arg: link})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return nodes, embeds
}

// countEmbeds counts the embeds of a text (any host's game links count).
func countEmbeds(s string) int {
	src := []byte(s)
	_, e := findEmbeds(markdown.Parser().Parse(text.NewReader(src)), src, "*")
	return len(e)
}

// renderer draws posts for one page: its language and the site's host.
type renderer struct {
	cat   *i18n.Catalog
	lang  string
	host  string
	store Store
	kid   bool // the reader is in kid mode: no links, no images
}

// Render returns the post's HTML: the Markdown sanitised, then the embeds
// drawn in their places.
func (rd renderer) Render(ctx context.Context, body string) template.HTML {
	src := []byte(body)
	doc := markdown.Parser().Parse(text.NewReader(src))
	nodes, embeds := findEmbeds(doc, src, rd.host)
	if len(embeds) > MaxEmbeds { // a text written before a lower bound
		nodes, embeds = nodes[:MaxEmbeds], embeds[:MaxEmbeds]
	}
	// Each embed becomes a paragraph holding a token no text can guess,
	// which survives the sanitiser and is then replaced by the drawing.
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	tokens := make([]string, len(nodes))
	for i, n := range nodes {
		tokens[i] = fmt.Sprintf("forumembed%sx%d", hex.EncodeToString(nonce[:]), i)
		p := ast.NewParagraph()
		p.AppendChild(p, ast.NewString([]byte(tokens[i])))
		n.Parent().ReplaceChild(n.Parent(), n, p)
	}
	var out bytes.Buffer
	if err := markdown.Renderer().Render(&out, src, doc); err != nil {
		return template.HTML(template.HTMLEscapeString(body))
	}
	pol := policy
	if rd.kid {
		pol = kidPolicy
	}
	html := string(pol.SanitizeBytes(out.Bytes()))
	for i, tok := range tokens {
		html = strings.Replace(html, "<p>"+tok+"</p>", string(rd.embed(ctx, embeds[i])), 1)
	}
	return template.HTML(html)
}

// embed draws one embed, or its error.
func (rd renderer) embed(ctx context.Context, e embed) template.HTML {
	var (
		h   template.HTML
		err error
	)
	switch e.kind {
	case "board":
		h, err = rd.board(e)
	default:
		h, err = rd.game(ctx, e)
	}
	if err != nil {
		msg, detail := rd.cat.T(rd.lang, "forum.embed.failed"), err.Error()
		if ee, ok := err.(embedError); ok {
			msg, detail = ee.msg, ee.detail
		}
		out := `<div class="forum-embed-error" role="note"><strong>` + template.HTMLEscapeString(rd.cat.T(rd.lang, "forum.embed.error_"+e.kind)) +
			`</strong> ` + template.HTMLEscapeString(msg)
		if detail != "" {
			out += ` <code translate="no">` + template.HTMLEscapeString(detail) + `</code>`
		}
		return template.HTML(out + `</div>`)
	}
	return h
}

// embedError is an embed's error in the reader's language, with the rules
// library's words on it (detail, English) where it has them.
type embedError struct{ msg, detail string }

func (e embedError) Error() string { return e.msg }

func (rd renderer) board(e embed) (template.HTML, error) {
	rules := toguz.Standard()
	if e.rule != "" {
		r, err := site.ParseRuleset(e.rule)
		if err != nil {
			return "", embedError{msg: rd.cat.T(rd.lang, "forum.embed.bad_rules", site.Excerpt(e.rule))}
		}
		rules = r
	}
	if e.arg == "" {
		return "", embedError{msg: rd.cat.T(rd.lang, "forum.embed.empty")}
	}
	if len(e.arg) > 200 {
		return "", embedError{msg: rd.cat.T(rd.lang, "forum.embed.long")}
	}
	p, _, err := toguz.ParseFEN(e.arg, rules)
	if err != nil {
		col := 0
		var pe *toguz.ParseError
		if errors.As(err, &pe) {
			col = pe.Column
		}
		msg := rd.cat.T(rd.lang, "forum.embed.bad_position", col)
		if pe != nil && pe.Msg != "" {
			return "", embedError{msg, pe.Msg}
		}
		return "", embedError{msg, err.Error()}
	}
	pic, err := svg.Render(p, svg.Options{Width: 480, Labels: site.BoardLabels(rd.cat, rd.lang, p)})
	if err != nil {
		return "", err
	}
	return template.HTML(`<figure class="forum-embed forum-board">` + string(pic) +
		`<figcaption translate="no"><code>` + template.HTMLEscapeString(e.arg) + `</code></figcaption></figure>`), nil
}

func (rd renderer) game(ctx context.Context, e embed) (template.HTML, error) {
	id, ok := gameID(e.arg, rd.host)
	if !ok {
		if gamePath.MatchString("/game/" + e.arg) {
			id, ok = e.arg, true
		}
	}
	if !ok {
		return "", embedError{msg: rd.cat.T(rd.lang, "forum.embed.bad_link", site.Excerpt(e.arg))}
	}
	g, err := rd.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return "", embedError{msg: rd.cat.T(rd.lang, "forum.embed.no_game", id)}
	}
	if err != nil {
		return "", err
	}
	moves, err := rd.store.Moves(ctx, id)
	if err != nil {
		return "", err
	}
	var p toguz.Position
	if g.StartFEN != "" {
		p, _, err = toguz.ParseFEN(g.StartFEN, g.Rules)
	} else {
		p, err = toguz.NewPosition(g.Rules)
	}
	if err != nil {
		return "", err
	}
	opt := svg.Options{Width: 480}
	for _, m := range moves {
		before := p
		if p, err = p.Play(m.Hole); err != nil {
			return "", fmt.Errorf("game %s ply %d: %w", id, m.Ply, err)
		}
		opt.From, opt.To = svg.LastMove(before, m.Hole)
	}
	white, black := site.SeatName(rd.cat, rd.lang, g.Players[0]), site.SeatName(rd.cat, rd.lang, g.Players[1])
	opt.White, opt.Black, opt.Labels = white, black, site.BoardLabels(rd.cat, rd.lang, p)
	pic, err := svg.Render(p, opt)
	if err != nil {
		return "", err
	}
	status := rd.cat.T(rd.lang, "forum.embed.playing")
	if g.Status == game.Ended {
		status = rd.cat.Outcome(rd.lang, g.Result.String(), g.Termination.String(), nil)
	}
	caption := rd.cat.T(rd.lang, "forum.embed.game", white, black, len(moves))
	return template.HTML(`<figure class="forum-embed forum-game">` + string(pic) + `<figcaption><a href="/game/` +
		template.HTMLEscapeString(id) + `">` + template.HTMLEscapeString(caption) + `</a> · ` +
		template.HTMLEscapeString(status) + `</figcaption></figure>`), nil
}

// plainText returns a text's words without its Markdown: its text's
// pieces joined by spaces, code blocks (boards and games too) left out.
func plainText(body string) string {
	src := []byte(body)
	var b strings.Builder
	_ = ast.Walk(markdown.Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			b.WriteByte(' ')
		case *ast.AutoLink:
			b.Write(n.URL(src))
			b.WriteByte(' ')
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// Quote returns the text of a reply that quotes post p by author.
func Quote(author, body string) string {
	var b strings.Builder
	b.WriteString("> **@" + author + "**\n>\n")
	for _, l := range strings.Split(body, "\n") {
		b.WriteString("> " + l + "\n")
	}
	b.WriteString("\n")
	return b.String()
}
