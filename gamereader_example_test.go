package toguz_test

import (
	"fmt"
	"strings"

	"github.com/toguz/toguz"
)

// A GameReader reads a file of any size a game at a time; an error names
// the file, line, column, game and ply, and quotes at most a short excerpt.
func ExampleGameReader() {
	file := "[Result \"*\"]\n\n1. 76 98 *\n\n[Result \"*\"]\n\n1. 76 " + strings.Repeat("z", 1000) + " *\n"
	gr := toguz.NewGameReader(strings.NewReader(file), "games.tgn", 0)
	for g, err := range gr.All() {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(gr.Format(), len(g.Plies), "plies")
	}
	// Output:
	// toguz 2 plies
	// games.tgn:7:7: game 2, ply 2: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…": want a ply (two digits and an optional x: 76, 48x; or the hole alone: 7), a move number, a comment or a result
}
