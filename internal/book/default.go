package book

import (
	_ "embed"
	"sync"
)

// The default book: the 2018 master games, made from the repository root with
//
//	toguz book build -o internal/book/default.book --games ../shared/data/masters-2018.pgn --check-depth 8
//
//go:embed default.book
var defaultData []byte

// defaultBook reads the embedded file once; the book is immutable.
var defaultBook = sync.OnceValues(func() (*Book, error) { return Read(defaultData) })

// Default returns the embedded book (see the build command above).
func Default() (*Book, error) { return defaultBook() }
