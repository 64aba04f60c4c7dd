package site

import (
	"net/http"
	"strconv"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
)

// SeatName is a seat's name in lang: the engine's is the pages' words for
// it ("Engine level 3" in the page's language), a person's his own.
func SeatName(cat *i18n.Catalog, lang string, seat game.Seat) string {
	if seat.IsEngine() {
		return cat.T(lang, "game.engine", seat.Engine)
	}
	return Who(cat, lang, seat.Name)
}

// Who is how a page writes a person's name: a guest's as "Guest 47372" in
// lang (game.GuestNumber), an account's as it is.
func Who(cat *i18n.Catalog, lang, name string) string {
	if n, ok := game.GuestNumber(name); ok {
		return cat.T(lang, "game.guestname", n)
	}
	return name
}

// Redirect answers a form's POST (or a page that moved) with 303 See Other
// to url.
func Redirect(w http.ResponseWriter, r *http.Request, url string) error {
	http.Redirect(w, r, url, http.StatusSeeOther)
	return nil
}

// Excerpt shortens what a client sent for an error message.
func Excerpt(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// PageOf returns page (1, 2, …; anything else is 1) of list, size a
// page, and the numbers of the newer and older pages (0 where there is
// none): the lists it pages are newest first. A page past the last is
// empty, its newer page the last.
func PageOf[T any](list []T, page, size int) (shown []T, newer, older int) {
	pages := (len(list) + size - 1) / size
	if page < 1 {
		page = 1
	}
	if page > 1 {
		newer = min(page-1, max(pages, 1))
	}
	if page > pages {
		return nil, newer, 0
	}
	from := (page - 1) * size
	to := min(from+size, len(list))
	if to < len(list) {
		older = page + 1
	}
	return list[from:to], newer, older
}

// PageParam reads ?page=: 1 when it is absent or not a number.
func PageParam(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}
