package federation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/chart"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Handlers are the register's pages (/federations, /players) and API
// (/api/federations, /api/players).
//
// Threat model: anyone reads the register (it is the federations' public
// record; a player's birth year and sex are published as on the lists);
// only a federation's officers, granted by the site's operator from the
// command line, import and publish its lists and decide the claims to
// its entries; an account claims at most maxOpenClaims entries at a time.
// An imported file is read up to MaxImportBytes.
type Handlers struct {
	reg   *Service
	kit   site.Kit
	now   func() time.Time
	files fileCache
	// champs lists the site's championships (nil: none).
	champs Championships
}

// NewHandlers returns the pages and API of reg.
func NewHandlers(reg *Service, kit site.Kit) *Handlers {
	return &Handlers{reg: reg, kit: kit, now: reg.now, files: fileCache{m: map[string]cachedFile{}}}
}

// fileCache keeps the lists' files made lately: a published list never
// changes, and a national list's PDF takes a quarter of a second to make,
// so that a stranger asking for it again and again costs a map lookup.
// Its entries live fileTTL (the names and ranks in them may change), at
// most maxCachedFiles of them.
type fileCache struct {
	mu sync.Mutex
	m  map[string]cachedFile
}

type cachedFile struct {
	body []byte
	made time.Time
}

const (
	fileTTL        = 10 * time.Minute
	maxCachedFiles = 64
)

func (c *fileCache) get(key string, now time.Time) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.m[key]
	if !ok || now.Sub(f.made) > fileTTL {
		return nil, false
	}
	return f.body, true
}

func (c *fileCache) put(key string, body []byte, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, f := range c.m {
		if now.Sub(f.made) > fileTTL {
			delete(c.m, k)
		}
	}
	if len(c.m) >= maxCachedFiles {
		oldest := ""
		for k, f := range c.m {
			if oldest == "" || f.made.Before(c.m[oldest].made) {
				oldest = k
			}
		}
		delete(c.m, oldest)
	}
	c.m[key] = cachedFile{body: body, made: now}
}

// MaxImportBytes bounds an imported list's form (the server reads the
// import route's body up to it: IsUpload).
const MaxImportBytes = 8 << 20

// IsUpload reports whether path is the import of a list, whose body may
// be up to MaxImportBytes.
func IsUpload(path string) bool {
	rest, ok := strings.CutPrefix(path, "/federations/")
	code, tail, _ := strings.Cut(rest, "/")
	return ok && code != "" && tail == "import"
}

const (
	maxOpenClaims = 3
	pageSize      = 50
)

// Routes registers the pages and API on r.
func (h *Handlers) Routes(r site.Router) {
	r.API("GET /api/federations", h.apiFederations)
	r.API("GET /api/federations/{code}", h.apiFederation)
	r.API("GET /api/federations/{code}/players", h.apiPlayers)
	r.API("GET /api/federations/{code}/lists/{discipline}/{day}", h.apiList)
	r.API("GET /api/players", h.apiSearch)
	r.API("GET /api/players/{id}", h.apiPlayer)
	r.Page("GET /federations", h.pageFederations)
	r.Page("GET /federations/{code}", h.pageFederation)
	r.Page("POST /federations/{code}/import", h.pageImport)
	r.Page("POST /federations/{code}/publish", h.pagePublish)
	r.Page("POST /federations/{code}/claims", h.pageDecide)
	r.Page("POST /federations/{code}/config", h.pageConfig)
	r.Page("POST /federations/{code}/ranks", h.pageAward)
	r.Page("POST /federations/{code}/clubs", h.pageClub)
	r.Page("POST /federations/{code}/players", h.pagePutPlayer)
	r.Page("GET /federations/{code}/lists/{discipline}/{day}", h.pageList)
	r.Page("GET /federations/{code}/lists/{discipline}/{day}/{file}", h.listFile)
	r.Page("GET /players", h.pageSearch)
	r.Page("GET /players/{id}", h.pagePlayer)
	r.Page("POST /players/{id}/claim", h.pageClaim)
}

// asAPI turns the register's errors into the site's.
func asAPI(err error) error {
	var ie *ImportError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNoFederation), errors.Is(err, ErrNoPlayer):
		return apierr.NotFound("fed.err.not_found").WithDetail(err)
	case errors.Is(err, ErrNotOfficer):
		return apierr.Forbidden("fed.err.not_officer")
	case errors.Is(err, ErrPublished):
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "fed.err.published").WithDetail(err)
	case errors.As(err, &ie):
		return apierr.BadRequest(apierr.CodeBadRequest, "fed.err.import", ie.Error()).WithDetail(err)
	case errors.Is(err, ErrInvalid):
		return apierr.BadRequest(apierr.CodeBadRequest, "fed.err.invalid", strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")).WithDetail(err)
	}
	return err
}

// FedView is a federation as the pages and the API show it.
type FedView struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	Level   Level  `json:"level"`
	Parent  string `json:"parent,omitempty"`
	Founded int    `json:"founded,omitempty"`
}

func fedView(f Federation, lang string) FedView {
	return FedView{Code: f.Code, Name: f.Name(lang), Level: f.Level, Parent: f.Parent, Founded: f.Founded}
}

// PlayerRow is a register entry in a list of players.
type PlayerRow struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	NameCyrl   string         `json:"name_cyrl"`
	NameLatn   string         `json:"name_latn"`
	Federation string         `json:"federation"`
	BirthYear  int            `json:"birth_year,omitempty"`
	Sex        Sex            `json:"sex"`
	Club       string         `json:"club,omitempty"`
	Rank       string         `json:"rank,omitempty"`
	RankName   string         `json:"rank_name,omitempty"`
	Title      string         `json:"title,omitempty"`
	Ratings    map[string]int `json:"ratings"` // by discipline
}

// displayName is the name a page in lang shows: Latin letters in English
// and Latin Kazakh, Cyrillic in the others.
func displayName(p Player, lang string) string {
	if (lang == "en" || lang == "kk-Latn") && p.NameLatn != "" || p.NameCyrl == "" {
		return p.NameLatn
	}
	return p.NameCyrl
}

func (h *Handlers) rows(ctx context.Context, es []Entry, lang string) ([]PlayerRow, error) {
	feds := map[string]Federation{}
	out := make([]PlayerRow, 0, len(es))
	for _, e := range es {
		f, ok := feds[e.Federation]
		if !ok {
			var err error
			if f, err = h.reg.Federation(ctx, e.Federation); err != nil {
				return nil, err
			}
			feds[e.Federation] = f
		}
		row := PlayerRow{ID: e.ID, Name: displayName(e.Player, lang), NameCyrl: e.NameCyrl, NameLatn: e.NameLatn,
			Federation: e.Federation, BirthYear: e.BirthYear, Sex: e.Sex, Club: e.Club, Rank: e.Rank, Title: e.Title,
			Ratings: map[string]int{}}
		for d, r := range e.Ratings {
			row.Ratings[string(d)] = r
		}
		if e.Rank != "" {
			row.RankName = f.Ranks.Name(e.Rank, lang)
		}
		out = append(out, row)
	}
	return out, nil
}

// Filter is the players' filter of a federation's page and API.
type Filter struct {
	Rank, Club, Sex, Q string
	AgeMin, AgeMax     int
	Page               int
}

func (h *Handlers) filterOf(r *http.Request, code string) (Filter, store.FedPlayerFilter) {
	q := r.URL.Query()
	f := Filter{Rank: q.Get("rank"), Club: q.Get("club"), Sex: q.Get("sex"), Q: strings.TrimSpace(q.Get("q")), Page: max(site.PageParam(r), 1)}
	if len(f.Q) > 80 {
		f.Q = f.Q[:80]
	}
	f.AgeMin, _ = strconv.Atoi(q.Get("age_min"))
	f.AgeMax, _ = strconv.Atoi(q.Get("age_max"))
	if f.Sex != string(Male) && f.Sex != string(Female) {
		f.Sex = ""
	}
	sf := store.FedPlayerFilter{Federation: code, Rank: f.Rank, Club: f.Club, Sex: f.Sex, Query: f.Q,
		Limit: pageSize, Offset: (f.Page - 1) * pageSize}
	year := h.now().Year()
	if f.AgeMin > 0 {
		sf.BornTo = year - f.AgeMin
	}
	if f.AgeMax > 0 {
		sf.BornFrom = year - f.AgeMax
	}
	return f, sf
}

// Query returns the filter as a URL query for another page of it.
func (f Filter) Query(page int) string {
	v := url.Values{}
	for k, s := range map[string]string{"rank": f.Rank, "club": f.Club, "sex": f.Sex, "q": f.Q} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if f.AgeMin > 0 {
		v.Set("age_min", strconv.Itoa(f.AgeMin))
	}
	if f.AgeMax > 0 {
		v.Set("age_max", strconv.Itoa(f.AgeMax))
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

// listRow is a published list on a federation's page.
type listRow struct {
	Discipline Discipline `json:"discipline"`
	Day        string     `json:"day"`
	Imported   bool       `json:"imported"`
}

// eventRow is a reported event of the federation's calendar.
type eventRow struct {
	Event      string     `json:"event"`
	Name       string     `json:"name"`
	Discipline Discipline `json:"discipline"`
	Start      string     `json:"start"`
	End        string     `json:"end"`
	Games      int        `json:"games"`
	Linked     bool       `json:"-"` // a championship of the site: its page is /championship/{Event}
}

// rankOption is a rank of the filter's choice.
type rankOption struct{ Code, Name string }

// fedData is the page /federations/{code} and its API.
type fedData struct {
	Federation FedView         `json:"federation"`
	ParentName string          `json:"-"`
	Members    []FedView       `json:"members"`
	Officers   []string        `json:"officers"`
	Clubs      []store.FedClub `json:"clubs"`
	Players    []PlayerRow     `json:"players"`
	Total      int             `json:"total"`
	Lists      []listRow       `json:"lists"`
	Events     []eventRow      `json:"events"`
	// Championships are the site's championships reported to it.
	Championships []Championship `json:"championships"`
	Filter        Filter         `json:"-"`
	Ranks         []rankOption   `json:"-"`
	Newer         int            `json:"-"`
	Older         int            `json:"-"`
	// The officers' panel.
	Officer     bool              `json:"-"`
	Claims      []store.FedClaim  `json:"-"`
	Disciplines []Discipline      `json:"-"`
	NextDay     string            `json:"-"`
	Done        string            `json:"-"` // what the last form did
	ClaimNames  map[string]string `json:"-"`
	RanksJSON   string            `json:"-"`
	RulesJSON   string            `json:"-"`
	Today       string            `json:"-"`
}

func (h *Handlers) fedData(r *http.Request, code string) (fedData, error) {
	ctx, lang := r.Context(), h.kit.Lang(r)
	f, err := h.reg.Federation(ctx, code)
	if err != nil {
		return fedData{}, asAPI(err)
	}
	d := fedData{Federation: fedView(f, lang), Disciplines: Disciplines, Officers: []string{}}
	all, err := h.reg.Federations(ctx)
	if err != nil {
		return d, err
	}
	for _, o := range all {
		if o.Parent == code {
			d.Members = append(d.Members, fedView(o, lang))
		}
		if o.Code == f.Parent {
			d.ParentName = o.Name(lang)
		}
	}
	us, err := h.reg.st.FedOfficers(ctx, code)
	if err != nil {
		return d, err
	}
	for _, u := range us {
		d.Officers = append(d.Officers, u.Name)
	}
	if d.Clubs, err = h.reg.st.FedClubs(ctx, code); err != nil {
		return d, err
	}
	var sf store.FedPlayerFilter
	d.Filter, sf = h.filterOf(r, code)
	es, total, err := h.reg.Players(ctx, sf)
	if err != nil {
		return d, err
	}
	if d.Players, err = h.rows(ctx, es, lang); err != nil {
		return d, err
	}
	d.Total = total
	if d.Filter.Page > 1 {
		d.Newer = d.Filter.Page - 1
	}
	if d.Filter.Page*pageSize < total {
		d.Older = d.Filter.Page + 1
	}
	for _, rk := range f.Ranks {
		d.Ranks = append(d.Ranks, rankOption{Code: rk.Code, Name: f.Ranks.Name(rk.Code, lang)})
	}
	lists, err := h.reg.Lists(ctx, code, "")
	if err != nil {
		return d, err
	}
	for _, l := range lists {
		d.Lists = append(d.Lists, listRow{Discipline: Discipline(l.Discipline), Day: l.Day, Imported: l.Imported})
	}
	for _, disc := range Disciplines {
		reps, err := h.reg.Reports(ctx, code, disc, "", "")
		if err != nil {
			return d, err
		}
		for _, rp := range reps {
			d.Events = append(d.Events, eventRow{Event: rp.Event, Name: rp.Name, Discipline: disc,
				Start: rp.Start.Format(time.DateOnly), End: rp.End.Format(time.DateOnly), Games: len(rp.Games)})
		}
	}
	slices.SortStableFunc(d.Events, func(a, b eventRow) int { return strings.Compare(b.End, a.End) })
	d.Championships = []Championship{}
	if h.champs != nil {
		if d.Championships, err = h.champs.OfFederation(ctx, code); err != nil {
			return d, err
		}
		for i, e := range d.Events {
			d.Events[i].Linked = slices.ContainsFunc(d.Championships, func(c Championship) bool { return c.ID == e.Event })
		}
	}
	next := h.now().UTC()
	d.NextDay = time.Date(next.Year(), next.Month()+1, 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	me := h.kit.Identity(r).Account.ID
	if d.Officer, err = h.reg.IsOfficer(ctx, code, me); err != nil {
		return d, err
	}
	if d.Officer {
		if d.Claims, err = h.reg.Claims(ctx, code); err != nil {
			return d, err
		}
		rk, _ := json.MarshalIndent(f.Ranks, "", "  ")
		rl, _ := json.MarshalIndent(f.Rules, "", "  ")
		d.RanksJSON, d.RulesJSON, d.Today = string(rk), string(rl), h.now().UTC().Format(time.DateOnly)
		d.ClaimNames = map[string]string{}
		for _, c := range d.Claims {
			if e, err := h.reg.Entry(ctx, c.Player); err == nil {
				d.ClaimNames[c.Player] = displayName(e.Player, lang)
			}
		}
	}
	return d, nil
}

func (h *Handlers) apiFederations(w http.ResponseWriter, r *http.Request) error {
	fs, err := h.reg.Federations(r.Context())
	if err != nil {
		return err
	}
	out := []FedView{}
	for _, f := range fs {
		out = append(out, fedView(f, h.kit.Lang(r)))
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"federations": out})
}

func (h *Handlers) apiFederation(w http.ResponseWriter, r *http.Request) error {
	d, err := h.fedData(r, r.PathValue("code"))
	if err != nil {
		return err
	}
	if d.Members == nil {
		d.Members = []FedView{}
	}
	return site.WriteJSON(w, http.StatusOK, d)
}

func (h *Handlers) apiPlayers(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.reg.Federation(r.Context(), code); err != nil {
		return asAPI(err)
	}
	_, sf := h.filterOf(r, code)
	es, total, err := h.reg.Players(r.Context(), sf)
	if err != nil {
		return err
	}
	rows, err := h.rows(r.Context(), es, h.kit.Lang(r))
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"players": rows, "total": total})
}

func (h *Handlers) pageFederations(w http.ResponseWriter, r *http.Request) error {
	fs, err := h.reg.Federations(r.Context())
	if err != nil {
		return err
	}
	var out []FedView
	for _, f := range fs {
		out = append(out, fedView(f, h.kit.Lang(r)))
	}
	return h.kit.Render(w, http.StatusOK, "federations", h.kit.Page(r, "fed.title", out))
}

func (h *Handlers) pageFederation(w http.ResponseWriter, r *http.Request) error {
	d, err := h.fedData(r, r.PathValue("code"))
	if err != nil {
		return err
	}
	d.Done = r.URL.Query().Get("done")
	return h.kit.Render(w, http.StatusOK, "federation", h.kit.Page(r, "fed.federation_title", d, d.Federation.Name))
}

// officer returns the account of r when it is an officer of code.
func (h *Handlers) officer(r *http.Request, code string) (int64, error) {
	id, err := h.kit.MustIdentity(r)
	if err != nil {
		return 0, err
	}
	ok, err := h.reg.IsOfficer(r.Context(), code, id.Account.ID)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, asAPI(ErrNotOfficer)
	}
	return id.Account.ID, nil
}

func formDay(s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return t, fmt.Errorf("%w: the date %q is not YYYY-MM-DD", ErrInvalid, s)
	}
	return t, nil
}

func (h *Handlers) pageImport(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.officer(r, code); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxImportBytes)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "fed.err.file").WithDetail(err)
	}
	day, err := formDay(r.FormValue("day"))
	if err != nil {
		return asAPI(err)
	}
	file, _, err := r.FormFile("file")
	if err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "fed.err.file").WithDetail(err)
	}
	defer file.Close()
	n, err := h.reg.Import(r.Context(), code, Discipline(r.FormValue("discipline")), day, file)
	if err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/federations/"+code+"?done="+url.QueryEscape(fmt.Sprintf("imported:%d", n)))
}

func (h *Handlers) pagePublish(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.officer(r, code); err != nil {
		return err
	}
	day, err := formDay(r.FormValue("day"))
	if err != nil {
		return asAPI(err)
	}
	d := Discipline(r.FormValue("discipline"))
	if _, err := h.reg.Publish(r.Context(), code, d, day); err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/federations/"+code+"/lists/"+string(d)+"/"+day.Format(time.DateOnly))
}

func (h *Handlers) pageDecide(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	me, err := h.officer(r, code)
	if err != nil {
		return err
	}
	user, _ := strconv.ParseInt(r.FormValue("user"), 10, 64)
	player := r.FormValue("player")
	if e, err := h.reg.Entry(r.Context(), player); err != nil {
		return asAPI(err)
	} else if e.Federation != code {
		return asAPI(ErrNotOfficer)
	}
	approve := r.FormValue("decision") == "approve"
	if err := h.reg.Decide(r.Context(), me, player, user, approve); err != nil {
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
			return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "fed.err.claim").WithDetail(err)
		}
		return asAPI(err)
	}
	done := "rejected"
	if approve {
		done = "approved"
	}
	return site.Redirect(w, r, "/federations/"+code+"?done="+done)
}

// lineRow is a line of a list's page.
type lineRow struct {
	No     int    `json:"no"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	Birth  int    `json:"birth_year,omitempty"`
	Sex    Sex    `json:"sex"`
	Club   string `json:"club,omitempty"`
	Rank   string `json:"rank,omitempty"`
	Rating int    `json:"rating"`
	Change int    `json:"change"`
	Period int    `json:"games"`
	Total  int    `json:"total_games"`
	K      int    `json:"k"`
}

// listData is a list's page and API.
type listData struct {
	Federation FedView    `json:"federation"`
	Discipline Discipline `json:"discipline"`
	Day        string     `json:"day"`
	DayText    string     `json:"-"`
	Lines      []lineRow  `json:"lines"`
}

func (h *Handlers) listOf(r *http.Request) (Federation, []ListLine, listData, error) {
	code, d, day := r.PathValue("code"), Discipline(r.PathValue("discipline")), r.PathValue("day")
	f, err := h.reg.Federation(r.Context(), code)
	if err != nil {
		return f, nil, listData{}, asAPI(err)
	}
	lists, err := h.reg.Lists(r.Context(), code, d)
	if err != nil {
		return f, nil, listData{}, err
	}
	if !slices.ContainsFunc(lists, func(l store.FedList) bool { return l.Day == day }) {
		return f, nil, listData{}, apierr.NotFound("fed.err.no_list")
	}
	lines, err := h.reg.List(r.Context(), code, d, day)
	if err != nil {
		return f, nil, listData{}, err
	}
	lang := h.kit.Lang(r)
	ld := listData{Federation: fedView(f, lang), Discipline: d, Day: day, Lines: []lineRow{},
		DayText: dayText(h.kit.Catalog(), lang, day)}
	for i, l := range lines {
		row := lineRow{No: i + 1, ID: l.Player.ID, Name: displayName(l.Player.Player, lang), Birth: l.Player.BirthYear,
			Sex: l.Player.Sex, Club: l.Player.Club, Rating: l.Rating, Change: l.Change, Period: l.Period, Total: l.Games, K: l.K}
		if l.Player.Rank != "" {
			row.Rank = f.Ranks.Name(l.Player.Rank, lang)
		}
		ld.Lines = append(ld.Lines, row)
	}
	return f, lines, ld, nil
}

// dayText writes an ISO day as "1 March 2026" in lang.
func dayText(cat *i18n.Catalog, lang, day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return fmt.Sprintf("%d %s %d", t.Day(), cat.T(lang, fmt.Sprintf("archive.month.%d", int(t.Month()))), t.Year())
}

func (h *Handlers) apiList(w http.ResponseWriter, r *http.Request) error {
	_, _, ld, err := h.listOf(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, ld)
}

func (h *Handlers) pageList(w http.ResponseWriter, r *http.Request) error {
	_, _, ld, err := h.listOf(r)
	if err != nil {
		return err
	}
	cat, lang := h.kit.Catalog(), h.kit.Lang(r)
	return h.kit.Render(w, http.StatusOK, "federation_list", h.kit.Page(r, "fed.list_title", ld,
		ld.Federation.Name, cat.T(lang, "fed.disc."+string(ld.Discipline)), ld.DayText))
}

// PaperText returns the printed list's words in lang.
func PaperText(cat *i18n.Catalog, lang string, d Discipline, day string) PDFText {
	t := func(k string) string { return cat.T(lang, k) }
	return PDFText{Title: cat.T(lang, "fed.paper_title", t("fed.disc."+string(d)), dayText(cat, lang, day)),
		No: t("fed.col.no"), ID: t("fed.col.id"), Name: t("fed.col.name"), Birth: t("fed.col.birth"),
		Club: t("fed.col.club"), Rank: t("fed.col.rank"), Rating: t("fed.col.rating"), Change: t("fed.col.change"),
		Gms: t("fed.col.games"), Lang: lang}
}

// listFiles are the formats of a list's file: their media types.
var listFiles = map[string]string{"csv": "text/csv; charset=utf-8", "trf": "text/plain; charset=utf-8", "pdf": "application/pdf"}

func (h *Handlers) listFile(w http.ResponseWriter, r *http.Request) error {
	format := r.PathValue("file")
	ctype, ok := listFiles[format]
	if !ok {
		return apierr.NotFound("fed.err.no_list")
	}
	code, d, day, lang := r.PathValue("code"), r.PathValue("discipline"), r.PathValue("day"), h.kit.Lang(r)
	key := strings.Join([]string{code, d, day, format, lang}, "/")
	body, ok := h.files.get(key, h.now())
	if !ok {
		f, lines, ld, err := h.listOf(r)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		switch format {
		case "csv":
			err = WriteCSV(&buf, lines)
		case "trf":
			err = WriteTRF(&buf, f, ld.Discipline, ld.Day, lines)
		case "pdf":
			err = WritePDF(&buf, f, PaperText(h.kit.Catalog(), lang, ld.Discipline, ld.Day), lines)
		}
		if err != nil {
			return err
		}
		body = buf.Bytes()
		h.files.put(key, body, h.now())
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s-%s.%s"`, code, d, day, format))
	_, err := w.Write(body)
	return err
}

// searchData is the page /players and its API.
type searchData struct {
	Q          string      `json:"q"`
	Federation string      `json:"federation,omitempty"`
	Players    []PlayerRow `json:"players"`
	Total      int         `json:"total"`
	Feds       []FedView   `json:"-"`
}

func (h *Handlers) search(r *http.Request) (searchData, error) {
	q := r.URL.Query()
	d := searchData{Q: strings.TrimSpace(q.Get("q")), Federation: q.Get("federation"), Players: []PlayerRow{}}
	if len(d.Q) > 80 {
		d.Q = d.Q[:80]
	}
	fs, err := h.reg.Federations(r.Context())
	if err != nil {
		return d, err
	}
	for _, f := range fs {
		d.Feds = append(d.Feds, fedView(f, h.kit.Lang(r)))
	}
	if d.Q == "" && d.Federation == "" {
		return d, nil
	}
	es, total, err := h.reg.Players(r.Context(), store.FedPlayerFilter{Query: d.Q, Federation: d.Federation, Limit: pageSize})
	if err != nil {
		return d, err
	}
	d.Total = total
	d.Players, err = h.rows(r.Context(), es, h.kit.Lang(r))
	return d, err
}

func (h *Handlers) apiSearch(w http.ResponseWriter, r *http.Request) error {
	d, err := h.search(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, d)
}

func (h *Handlers) pageSearch(w http.ResponseWriter, r *http.Request) error {
	d, err := h.search(r)
	if err != nil {
		return err
	}
	return h.kit.Render(w, http.StatusOK, "players_search", h.kit.Page(r, "fed.players_title", d))
}

// rankRow is a rank on a player's card.
type rankRow struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	Awarded string `json:"awarded"`
	Event   string `json:"event,omitempty"`
}

// histRow is a player's line in a published list.
type histRow struct {
	Federation string     `json:"federation"`
	Discipline Discipline `json:"discipline"`
	Day        string     `json:"day"`
	Rating     int        `json:"rating"`
	Change     int        `json:"change"`
	Games      int        `json:"games"`
}

// playedRow is an event a player played in.
type playedRow struct {
	Event      string     `json:"event"`
	Name       string     `json:"name"`
	Discipline Discipline `json:"discipline"`
	End        string     `json:"end"`
	Games      int        `json:"games"`
	Score      float64    `json:"score"`
	Linked     bool       `json:"-"` // a championship of the site: its page is /championship/{Event}
}

// cardData is the page /players/{id} and its API.
type cardData struct {
	Player     PlayerRow   `json:"player"`
	Federation FedView     `json:"federation"`
	Ranks      []rankRow   `json:"ranks"`
	History    []histRow   `json:"history"`
	Events     []playedRow `json:"events"`
	// Championships are the sections of the site's championships he
	// played in, with his place.
	Championships []ChampionshipPlayed `json:"championships"`
	Linked        bool                 `json:"linked"`
	Chart         template.HTML        `json:"-"`
	CanClaim      bool                 `json:"-"`
	Claimed       bool                 `json:"-"`
	Mine          bool                 `json:"-"`
	ClubName      string               `json:"club_name,omitempty"`
}

func (h *Handlers) card(r *http.Request) (cardData, error) {
	ctx, lang := r.Context(), h.kit.Lang(r)
	e, err := h.reg.Entry(ctx, r.PathValue("id"))
	if err != nil {
		return cardData{}, asAPI(err)
	}
	f, err := h.reg.Federation(ctx, e.Federation)
	if err != nil {
		return cardData{}, err
	}
	rows, err := h.rows(ctx, []Entry{e}, lang)
	if err != nil {
		return cardData{}, err
	}
	d := cardData{Player: rows[0], Federation: fedView(f, lang), Ranks: []rankRow{}, History: []histRow{}, Events: []playedRow{},
		Linked: e.UserID != 0}
	if e.Club != "" {
		clubs, err := h.reg.st.FedClubs(ctx, e.Federation)
		if err != nil {
			return d, err
		}
		for _, c := range clubs {
			if c.Code == e.Club {
				d.ClubName = c.Name
			}
		}
	}
	for _, rk := range e.Ranks {
		d.Ranks = append(d.Ranks, rankRow{Code: rk.Rank, Name: f.Ranks.Name(rk.Rank, lang), Awarded: rk.Awarded, Event: rk.Event})
	}
	slices.Reverse(d.Ranks) // the latest first
	hist, err := h.reg.History(ctx, e.ID)
	if err != nil {
		return d, err
	}
	for _, l := range hist {
		d.History = append(d.History, histRow{Federation: l.Federation, Discipline: Discipline(l.Discipline), Day: l.Day,
			Rating: l.Rating, Change: l.Change, Games: l.Period})
	}
	played, err := h.reg.EventsPlayed(ctx, e.Federation, e.ID)
	if err != nil {
		return d, err
	}
	for _, p := range played {
		d.Events = append(d.Events, playedRow{Event: p.Report.Event, Name: p.Report.Name, Discipline: p.Report.Discipline,
			End: p.Report.End.Format(time.DateOnly), Games: p.Games, Score: p.Score})
	}
	d.Championships = []ChampionshipPlayed{}
	if h.champs != nil {
		if d.Championships, err = h.champs.OfPlayer(ctx, e.ID); err != nil {
			return d, err
		}
		for i, p := range d.Events {
			d.Events[i].Linked = slices.ContainsFunc(d.Championships, func(c ChampionshipPlayed) bool { return c.ID == p.Event })
		}
	}
	d.Chart = historyChart(d.History, e.Federation, func(k string, a ...any) string { return h.kit.Catalog().T(lang, k, a...) },
		func(day string) string { return dayText(h.kit.Catalog(), lang, day) })
	if me := h.kit.Identity(r).Account.ID; me != 0 {
		d.Mine = e.UserID == me
		if !d.Linked {
			if _, err := h.reg.LinkedEntry(ctx, me); errors.Is(err, ErrNoPlayer) {
				d.CanClaim = true
				claims, err := h.reg.Claims(ctx, e.Federation)
				if err != nil {
					return d, err
				}
				d.Claimed = slices.ContainsFunc(claims, func(c store.FedClaim) bool { return c.Player == e.ID && c.UserID == me })
			}
		}
	}
	return d, nil
}

// historyChart draws a player's ratings in his federation's lists, one
// line a discipline.
func historyChart(hist []histRow, fed string, t func(string, ...any) string, dayText func(string) string) template.HTML {
	c := chart.Line{ID: "fed-rating-chart", Height: 200}
	lo, hi := math.Inf(1), math.Inf(-1)
	var first, last string
	days := func(day string) float64 {
		tm, _ := time.Parse(time.DateOnly, day)
		return float64(tm.Unix()) / 86400
	}
	for i, d := range Disciplines {
		s := chart.Series{Name: t("fed.disc." + string(d)), Class: "s" + strconv.Itoa(i)}
		for _, hr := range hist {
			if hr.Discipline != d || hr.Federation != fed {
				continue
			}
			s.Points = append(s.Points, chart.Point{X: days(hr.Day), Y: float64(hr.Rating), Data: true,
				Label: fmt.Sprintf("%s: %d", dayText(hr.Day), hr.Rating)})
			lo, hi = math.Min(lo, float64(hr.Rating)), math.Max(hi, float64(hr.Rating))
			if first == "" || hr.Day < first {
				first = hr.Day
			}
			last = max(last, hr.Day)
		}
		if len(s.Points) > 0 {
			s.Dots = true
			c.Series = append(c.Series, s)
		}
	}
	if len(c.Series) == 0 {
		return ""
	}
	// A tick at each list's date, at most 8 of them, and half a month
	// either side so that the first and last points are not on the edges.
	var listDays []string
	for _, hr := range hist {
		if hr.Federation == fed && !slices.Contains(listDays, hr.Day) {
			listDays = append(listDays, hr.Day)
		}
	}
	slices.Sort(listDays)
	step := (len(listDays) + 7) / 8
	for i := 0; i < len(listDays); i += step {
		tm, _ := time.Parse(time.DateOnly, listDays[i])
		c.XTicks = append(c.XTicks, chart.Tick{At: days(listDays[i]), Label: t(fmt.Sprintf("archive.month.%d", int(tm.Month()))),
			Sub: strconv.Itoa(tm.Year())})
	}
	c.FixX, c.XMin, c.XMax = true, days(first)-15, days(last)+15
	c.Title = t("fed.chart_label", first, last, int(lo), int(hi))
	return c.SVG()
}

func (h *Handlers) apiPlayer(w http.ResponseWriter, r *http.Request) error {
	d, err := h.card(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, d)
}

func (h *Handlers) pagePlayer(w http.ResponseWriter, r *http.Request) error {
	d, err := h.card(r)
	if err != nil {
		return err
	}
	return h.kit.Render(w, http.StatusOK, "player_card", h.kit.Page(r, "fed.player_title", d, d.Player.Name))
}

func (h *Handlers) pageClaim(w http.ResponseWriter, r *http.Request) error {
	id, err := h.kit.MustIdentity(r)
	if err != nil {
		return err
	}
	if id.Account.ID == 0 {
		return apierr.Forbidden("fed.err.account")
	}
	player := r.PathValue("id")
	n, err := h.reg.st.FedClaimsOf(r.Context(), id.Account.ID)
	if err != nil {
		return err
	}
	if n >= maxOpenClaims {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "fed.err.claims", maxOpenClaims)
	}
	if _, err := h.reg.LinkedEntry(r.Context(), id.Account.ID); err == nil {
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "fed.err.claim")
	}
	if err := h.reg.Claim(r.Context(), player, id.Account.ID); err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/players/"+url.PathEscape(player))
}

// maxConfigBytes bounds a configuration form.
const maxConfigBytes = 64 << 10

func (h *Handlers) pageConfig(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.officer(r, code); err != nil {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxConfigBytes)
	var ranks Ranks
	if err := json.Unmarshal([]byte(r.FormValue("ranks")), &ranks); err != nil {
		return asAPI(fmt.Errorf("%w: ranks: %v", ErrInvalid, err))
	}
	rules, err := ParseRules(r.FormValue("rules"))
	if err != nil {
		return asAPI(fmt.Errorf("%w: %v", ErrInvalid, err))
	}
	if err := h.reg.Configure(r.Context(), code, ranks, rules); err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/federations/"+code+"?done=config")
}

func (h *Handlers) pageAward(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.officer(r, code); err != nil {
		return err
	}
	player := strings.TrimSpace(r.FormValue("player"))
	if e, err := h.reg.Entry(r.Context(), player); err != nil {
		return asAPI(err)
	} else if e.Federation != code {
		return asAPI(ErrNotOfficer)
	}
	event := strings.TrimSpace(r.FormValue("event"))
	if len(event) > 200 {
		return asAPI(fmt.Errorf("%w: the event's name is longer than 200", ErrInvalid))
	}
	if err := h.reg.Award(r.Context(), store.FedRank{Player: player, Rank: r.FormValue("rank"), Awarded: r.FormValue("date"), Event: event}); err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/players/"+url.PathEscape(player))
}

func (h *Handlers) pageClub(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.officer(r, code); err != nil {
		return err
	}
	c := store.FedClub{Federation: code, Code: strings.TrimSpace(r.FormValue("club")), Name: strings.TrimSpace(r.FormValue("name")),
		City: strings.TrimSpace(r.FormValue("city"))}
	if len(c.City) > 120 {
		return asAPI(fmt.Errorf("%w: the city's name is longer than 120", ErrInvalid))
	}
	if err := h.reg.PutClub(r.Context(), c); err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/federations/"+code+"?done=club")
}

// ErrorKeys are the messages of the register's errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"fed.err.not_found", "fed.err.not_officer", "fed.err.published", "fed.err.import", "fed.err.invalid",
		"fed.err.file", "fed.err.claim", "fed.err.no_list", "fed.err.account", "fed.err.claims"}
}

// pagePutPlayer adds an entry to the register, or changes one of the
// officer's federation.
func (h *Handlers) pagePutPlayer(w http.ResponseWriter, r *http.Request) error {
	code := r.PathValue("code")
	if _, err := h.officer(r, code); err != nil {
		return err
	}
	p := Player{ID: strings.TrimSpace(r.FormValue("id")), Federation: code, NameCyrl: strings.TrimSpace(r.FormValue("name_cyrl")),
		NameLatn: strings.TrimSpace(r.FormValue("name_latn")), Sex: Sex(r.FormValue("sex")), Club: strings.TrimSpace(r.FormValue("club")),
		Title: strings.TrimSpace(r.FormValue("title"))}
	if by := strings.TrimSpace(r.FormValue("birth_year")); by != "" {
		var err error
		if p.BirthYear, err = strconv.Atoi(by); err != nil {
			return asAPI(fmt.Errorf("%w: birth year %q", ErrInvalid, by))
		}
	}
	if old, err := h.reg.Entry(r.Context(), p.ID); err == nil && old.Federation != code {
		return asAPI(ErrNotOfficer) // another federation's entry
	} else if err != nil && !errors.Is(err, ErrNoPlayer) {
		return err
	}
	if err := h.reg.PutPlayer(r.Context(), p); err != nil {
		return asAPI(err)
	}
	return site.Redirect(w, r, "/players/"+url.PathEscape(p.ID))
}
