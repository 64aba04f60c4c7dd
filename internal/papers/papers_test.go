package papers

import (
	"bytes"
	"testing"
)

func TestNewWritesEveryAlphabet(t *testing.T) {
	d, err := New(Portrait, "Тоғызқұмалақ")
	if err != nil {
		t.Fatal(err)
	}
	d.AddPage()
	for _, s := range []string{"Әбішев Ғалым Қайратұлы Ңң Өө Ұұ Үү Һһ Іі", "Тогуз коргоол: Ң Ө Ү", "Русский текст", "Latin, Äbişev"} {
		d.CellFormat(0, 8, s, "", 1, "L", false, 0, "")
	}
	d.SetFont(Font, "B", 12)
	d.CellFormat(0, 8, "Қорытынды", "", 1, "L", false, 0, "")
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) || b.Len() < 1000 {
		t.Fatalf("not a PDF: %d bytes starting %q", b.Len(), b.Bytes()[:min(8, b.Len())])
	}
}

func TestWriteRefusesABrokenDocument(t *testing.T) {
	d, err := New(Landscape, "x")
	if err != nil {
		t.Fatal(err)
	}
	d.SetFont("NoSuchFont", "", 10) // records an error
	var b bytes.Buffer
	if err := Write(&b, d); err == nil {
		t.Fatal("Write wrote a document with an error")
	}
	if b.Len() != 0 {
		t.Fatalf("wrote %d bytes", b.Len())
	}
}
