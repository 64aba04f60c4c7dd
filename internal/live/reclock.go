package live

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// The spectators' state is encoded once, at the change that made it, and
// sent to every spectator who joins or syncs until the next change: its
// running clock (and the first-move countdown) must then be told as of the
// sending, not as of the encoding. reclock does that on the encoded bytes,
// without the game: a clock runs down linearly, so the running side's time
// at now is its time at the encoding less the time since.

var (
	clockKey = []byte(`"clock":{`)
	abortKey = []byte(`"abort_in_ms":`)
)

// reclock returns the encoded State b, encoded at at, as it would be
// encoded at now: the running clock less the time since at (never below
// zero) and abort_in_ms likewise (never below 1, as State has it while a
// countdown runs). b is shared and never changed: a changed state is a new
// slice. Within a millisecond, or when nothing runs, b itself.
func reclock(b []byte, at, now time.Time) []byte {
	elapsed := now.Sub(at).Milliseconds()
	if elapsed <= 0 || len(b) == 0 {
		return b
	}
	out := b
	// The first "clock" key is State's own: the seats and moves before it
	// have no such field, and a quote inside a string is escaped.
	if i := bytes.Index(out, clockKey); i >= 0 {
		start := i + len(clockKey) - 1
		if n := bytes.IndexByte(out[start:], '}'); n >= 0 {
			end := start + n + 1
			var c ClockJSON
			if json.Unmarshal(out[start:end], &c) == nil && c.Running != "" {
				switch c.Running {
				case "white":
					c.WhiteMS = max(c.WhiteMS-elapsed, 0)
				case "black":
					c.BlackMS = max(c.BlackMS-elapsed, 0)
				}
				out = splice(out, start, end, mustJSON(c))
			}
		}
	}
	if i := bytes.Index(out, abortKey); i >= 0 {
		start := i + len(abortKey)
		end := start
		for end < len(out) && out[end] >= '0' && out[end] <= '9' {
			end++
		}
		if v, err := strconv.ParseInt(string(out[start:end]), 10, 64); err == nil && v > 0 {
			out = splice(out, start, end, strconv.AppendInt(nil, max(v-elapsed, 1), 10))
		}
	}
	return out
}

// splice returns b with b[i:j] replaced by r, in a new slice.
func splice(b []byte, i, j int, r []byte) []byte {
	out := make([]byte, 0, len(b)-(j-i)+len(r))
	out = append(out, b[:i]...)
	out = append(out, r...)
	return append(out, b[j:]...)
}
