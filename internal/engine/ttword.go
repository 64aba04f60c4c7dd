//go:build !js

package engine

import "sync/atomic"

// ttWord is a word of a table entry, read and written by every search thread.
type ttWord = atomic.Uint64
