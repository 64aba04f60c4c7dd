package engine

// ttWord is a plain word in the WebAssembly build: it runs on one thread, and
// there an atomic load or store is a function call (about a tenth of the
// browser's search time went to them).
type ttWord struct{ v uint64 }

func (w *ttWord) Load() uint64 { return w.v }

func (w *ttWord) Store(v uint64) { w.v = v }
