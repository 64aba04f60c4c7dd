//go:build race

package server

// raceDetector: the race detector makes everything several times slower,
// so timing bounds are not checked under it.
const raceDetector = true
