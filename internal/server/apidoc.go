package server

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"sync"

	"github.com/toguz/toguz/docs"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// apiDocPage is the API's reference as the page /api shows it: docs/api.md
// in HTML (GitHub's Markdown: tables, autolinks), each heading with an id
// for links, and the table of its sections. The Markdown is the server's
// own file, so its raw HTML, if any, is trusted.
type apiDocPage struct {
	Sections []apiDocSection
	Body     template.HTML
}

type apiDocSection struct{ ID, Title string }

// apiDocOnce is the reference converted once per process: it is the binary's
// own file, the same for every server (and every test's).
var apiDocOnce = sync.OnceValues(func() (*apiDocPage, error) { return renderAPIDoc(docs.API()) })

// renderAPIDoc converts the reference.
func renderAPIDoc(md string) (*apiDocPage, error) {
	conv := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()))
	src := []byte(md)
	doc := conv.Parser().Parse(text.NewReader(src))
	page := &apiDocPage{}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level == 2 {
			id, _ := h.AttributeString("id")
			idText, _ := id.([]byte)
			page.Sections = append(page.Sections, apiDocSection{ID: string(idText), Title: plainText(h, src)})
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := conv.Renderer().Render(&out, src, doc); err != nil {
		return nil, fmt.Errorf("the API's reference: %w", err)
	}
	page.Body = template.HTML(out.String()) // #nosec: the server's own document
	return page, nil
}

// plainText is the text of a heading without its Markdown.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
		case *ast.String:
			b.Write(t.Value)
		default:
			b.WriteString(plainText(c, src))
		}
	}
	return b.String()
}

// pageAPIDoc is GET /api: the API's reference, in English whatever the
// page's language (the frame and the note above it are translated).
func (s *Server) pageAPIDoc(w http.ResponseWriter, r *http.Request) error {
	return s.Render(w, http.StatusOK, "apidoc", s.Page(r, "apidoc.title", s.apiDoc))
}
