// Package papers is the base of every printed paper the site makes as a
// PDF (rating lists, pairings, standings, cross tables, score sheets,
// certificates): an A4 document with a font that has every letter of the
// five languages (Kazakh's Ә Ғ Қ Ң Ө Ұ Ү Һ І, Kyrgyz's Ң Ө Ү, Russian and
// Latin), embedded in the binary so that a paper looks the same on every
// machine.
//
// The font is DejaVu Sans (its licence is fonts/LICENSE). Invariant: a
// Doc's text is UTF-8 and always set in Font or its bold; fpdf's core
// fonts (Latin-1 only) are never used.
package papers

import (
	"bytes"
	"embed"
	"fmt"
	"io"

	"codeberg.org/go-pdf/fpdf"
)

//go:embed fonts/DejaVuSans.ttf fonts/DejaVuSans-Bold.ttf
var fonts embed.FS

// Font is the family name every paper's text is set in ("B" for bold).
const Font = "DejaVu"

// Orientation of a page.
type Orientation string

// The orientations of a page.
const (
	Portrait  Orientation = "P"
	Landscape Orientation = "L"
)

// New returns an empty A4 document in millimetres with Font registered
// (regular and bold) and set at 10 pt, its title and author set for the
// reader's window.
func New(o Orientation, title string) (*fpdf.Fpdf, error) {
	d := fpdf.New(string(o), "mm", "A4", "")
	for style, name := range map[string]string{"": "fonts/DejaVuSans.ttf", "B": "fonts/DejaVuSans-Bold.ttf"} {
		b, err := fonts.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("papers: font %s: %w", name, err)
		}
		d.AddUTF8FontFromBytes(Font, style, b)
	}
	if err := d.Error(); err != nil {
		return nil, fmt.Errorf("papers: fonts: %w", err)
	}
	d.SetTitle(title, true)
	d.SetAuthor("toguz", true)
	d.SetCreator("toguz", true)
	d.SetFont(Font, "", 10)
	return d, nil
}

// Write finishes d and writes it to w; a document that recorded an error
// while it was built is not written.
func Write(w io.Writer, d *fpdf.Fpdf) error {
	if err := d.Error(); err != nil {
		return fmt.Errorf("papers: %w", err)
	}
	var b bytes.Buffer
	if err := d.Output(&b); err != nil {
		return fmt.Errorf("papers: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}
