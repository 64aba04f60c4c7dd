package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/toguz/toguz/internal/i18n"
)

// holeNamesFlag adds -names, the language of the holes' traditional names
// to show beside their numbers.
func holeNamesFlag(fs *flag.FlagSet) *string {
	return fs.String("names", "", "show the holes' traditional names in this language: kk, kk-Latn, ky, "+
		"or ru and en (the Kazakh names with a gloss); empty: none")
}

// holeNames returns the names and glosses of -names lang for a board of
// holes, nil for "". The names are those of the nine holes of the standard
// board, so another size is an error rather than a wrong name.
func holeNames(lang string, holes int) (names, glosses []string, err error) {
	if lang == "" {
		return nil, nil, nil
	}
	tag, ok := i18n.Parse(lang)
	if !ok {
		var tags []string
		for _, l := range i18n.Languages() {
			tags = append(tags, l.Tag)
		}
		return nil, nil, fmt.Errorf("-names %q: want one of %s", lang, strings.Join(tags, ", "))
	}
	if holes != 9 {
		return nil, nil, fmt.Errorf("-names: the traditional names are those of the 9 holes of the standard board; this one has %d", holes)
	}
	for _, h := range i18n.Holes(tag) {
		names = append(names, h.Name)
		if h.Gloss != "" {
			glosses = append(glosses, h.Gloss)
		}
	}
	return names, glosses, nil
}
