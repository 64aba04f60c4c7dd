package site

// Excerpt returns s, cut to its first 40 bytes and an ellipsis when
// longer: a path or a name the client sent, as an error message quotes it.
func Excerpt(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
