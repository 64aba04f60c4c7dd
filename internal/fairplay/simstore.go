package fairplay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toguz/toguz"
)

// SimKey names a simulated game of Measure: its seed, its job's index in
// the run and what the job was. The same key in a run with the same levels,
// shares and accounts is the same game.
type SimKey struct {
	Seed    uint64  `json:"seed"`
	Job     int     `json:"job"`
	Level   int     `json:"level"`
	Share   float64 `json:"share"`
	Account int     `json:"account"`
	Game    int     `json:"game"`
}

// Simulated is a simulated game as Measure saves it: the cheater's side,
// the rating it is judged at, and the game's evidence.
type Simulated struct {
	SimKey
	Side   toguz.Player `json:"side"`
	Rating int          `json:"rating"`
	Record Record       `json:"record"`
}

// WriteSimulated writes s as one JSON line.
func WriteSimulated(w io.Writer, s Simulated) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadSimulated reads the lines WriteSimulated wrote (a last line cut short
// by an interrupted run is left out).
func ReadSimulated(r io.Reader) (map[SimKey]Simulated, error) {
	out := map[SimKey]Simulated{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	line := 0
	var pending error
	for sc.Scan() {
		line++
		if pending != nil {
			return nil, pending
		}
		var s Simulated
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			pending = fmt.Errorf("fairplay: simulated games, line %d: %w", line, err)
			continue
		}
		out[s.SimKey] = s
	}
	return out, sc.Err()
}
