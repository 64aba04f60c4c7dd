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

// The variants' books: self-play, there being no master games of them
// (the commands are in DefaultSet's documentation).
var (
	//go:embed bestemshe.book
	bestemsheData []byte
	//go:embed seven.book
	sevenData []byte
)

// defaultBook reads the embedded file once; the book is immutable.
var defaultBook = sync.OnceValues(func() (*Book, error) { return Read(defaultData) })

// Default returns the embedded book of the standard game (see the build
// command above).
func Default() (*Book, error) { return defaultBook() }

var defaultSet = sync.OnceValues(func() (*Set, error) {
	std, err := defaultBook()
	if err != nil {
		return nil, err
	}
	books := []*Book{std}
	for _, data := range [][]byte{bestemsheData, sevenData} {
		b, err := Read(data)
		if err != nil {
			return nil, err
		}
		books = append(books, b)
	}
	return NewSet(books...)
})

// DefaultSet returns the embedded books of every ruleset that has one:
// the standard game's (Default), and the self-play books of Bestemshe and
// the 2×7 board, made from the repository root with
//
//	toguz book build -ruleset bestemshe -o internal/book/bestemshe.book -selfplay 2000 -selfplay-level 9 -selfplay-depth 10 -check-depth 10
//	toguz book build -ruleset seven -o internal/book/seven.book -selfplay 800 -selfplay-level 9 -selfplay-depth 10 -check-depth 10
//
// (level 9 plays one of the moves within a quarter of a stone of its best,
// seeded per game, so the games vary and the counts say which moves the
// engine likes; the check at depth 10 drops the moves that lose badly).
func DefaultSet() (*Set, error) { return defaultSet() }
