package culture

import (
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/abacus"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/svg"
)

// Site is the learning pages on the site: /rules, /history, /key and the
// drawings /learn/diagram/{name}.svg.
type Site struct {
	kit site.Kit
}

// NewSite returns the learning pages.
func NewSite(kit site.Kit) *Site { return &Site{kit: kit} }

// Routes registers the learning pages' routes on r.
func (s *Site) Routes(r site.Router) {
	r.Page("GET /rules", s.pageRules)
	r.Page("GET /history", s.pageHistory)
	r.Page("GET /key", s.pageKey)
	r.Handle("GET /learn/diagram/{name}", http.HandlerFunc(s.learnDiagram))
}

// ErrorKeys are the messages of the key's errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"apierr.key.base", "apierr.key.digit", "apierr.key.too_long", "apierr.key.negative", "apierr.key.zero",
		"apierr.key.op"}
}

// source is where a fact comes from: Doc is a seed's number ("000") or
// "RULES.md" (docs/rules.md, the project's settled rules); Where its line or
// lines ("9", "186-198") or section ("§2"); Quote words of it, found there by
// TestLearnFactsQuoteTheirSources. This is the project's own reference, for
// its tests and translators: a page shows a seed as the named work it is
// (learnSources) and cites nothing for a rule only the project states.
type source struct {
	Doc, Where, Quote string
}

// Seed reports whether the source is a seed, a published work the page
// names (else docs/rules.md, which the page does not cite).
func (s source) Seed() bool { return s.Doc != "RULES.md" }

// fact is one statement: the catalog key of its text and its source.
type fact struct {
	Msg  string
	Args []any
	Src  source
	// Try links a variant to the editor with its ruleset; Diagram names a
	// drawing of learnDiagrams shown with the fact.
	Try     string
	Diagram string
	Verse   []string // lines of the source quoted whole (the Manas verse)

	// Filled per page in its language by localize; Cite and Quote are
	// empty where the page cites no source.
	Text, Cite, Quote, QuoteLang string
}

// section is a heading and its facts.
type section struct {
	ID, Head string
	Facts    []fact
}

func src(doc, where, quote string) source { return source{doc, where, quote} }

// historySections is /history.
var historySections = []section{
	{"names", "learn.history.names", []fact{
		{Msg: "learn.history.names.kk", Src: src("000", "3", "қазақтың ұлттық дәстүрлі ойындарының бірі")},
		{Msg: "learn.history.names.peas", Src: src("004", "17", "дословный перевод — «девять горошин»")},
		{Msg: "learn.history.names.pebbles", Src: src("003", "2", "девять камешков")},
		{Msg: "learn.history.names.ky", Src: src("002", "4", "«тогуз тезек» дегенди билдирет")},
		{Msg: "learn.history.names.nine", Src: src("003", "3", "считавшееся у древних монголов и тюрков священным числом")},
		{Msg: "learn.history.names.calendar", Src: src("002", "4", "тогуз күндүк жумалык циклдерге")},
		{Msg: "learn.history.names.algebra", Src: src("004", "18", "«алгеброй чабанов»")},
	}},
	{"past", "learn.history.past", []fact{
		{Msg: "learn.history.past.age", Src: src("000", "9", "4 мың жылдық кезеңді")},
		{Msg: "learn.history.past.steppe", Src: src("000", "9", "қазақ даласындағы ең кең тараған ойын")},
		{Msg: "learn.history.past.shepherds", Src: src("000", "9", "қарапайым қойшылар ойлап тапқан")},
		{Msg: "learn.history.past.ground", Src: src("003", "6", "выкапывали необходимые лунки прямо на земле")},
		{Msg: "learn.history.past.silkroad", Src: src("002", "4", "16-кылымга таандык")},
		{Msg: "learn.history.past.first", Src: src("002", "5", "Николай Пантусов (1906)")},
		{Msg: "learn.history.past.arith", Src: src("000", "9", "арифметикалық есептер үшін пайдаланылып")},
		{Msg: "learn.history.past.manas", Src: src("004", "127-139", "Тогуз коргоол ойноду"), Verse: manasVerse},
		{Msg: "learn.history.past.unesco", Src: src("004", "19", "В 2020 году ЮНЕСКО")},
	}},
	{"sport", "learn.history.sport", []fact{
		{Msg: "learn.history.sport.1949", Src: src("002", "5", "1949-жылы")},
		{Msg: "learn.history.sport.feds", Src: src("004", "120", "зарегистрирована 27 сентября 1993 года")},
		{Msg: "learn.history.sport.champs", Src: src("004", "121", "В 1994 году в Кыргызстане")},
		{Msg: "learn.history.sport.nomad", Src: src("004", "121", "Всемирных игр кочевников")},
		{Msg: "learn.history.sport.pardubice", Src: src("004", "120", "Пардубице")},
		{Msg: "learn.history.sport.kz", Src: src("000", "60", "облыс орталықтарында")},
		{Msg: "learn.history.sport.independence", Src: src("000", "62", "тәуелсіздік алған жылдан бері")},
		{Msg: "learn.history.sport.people", Src: src("000", "60", "Әлихан Байменов")},
		{Msg: "learn.history.sport.world", Src: src("000", "52", "Қырғызстанда мектептерде")},
		{Msg: "learn.history.sport.score", Src: src("004", "115", "пол-очка")},
		{Msg: "learn.history.sport.shortest", Src: src("002", "35", "Актау шаарында (2006-ж.)")},
		{Msg: "learn.history.sport.software", Src: src("002", "36", "Ернар Шамбаевдин")},
	}},
	{"variants", "learn.history.variants", []fact{
		{Msg: "learn.history.var.bestemshe", Src: src("004", "17", "Уюм тууду"), Try: "bestemshe", Diagram: "start-bestemshe"},
		{Msg: "learn.history.var.bestemshe.rules", Src: src("002", "32", "туздук эрежесиз ойнолот")},
		{Msg: "learn.history.var.seven", Src: src("002", "31", "2×7 тактада ар бир тешикке 7 топ"), Try: "seven", Diagram: "start-seven"},
		{Msg: "learn.history.var.sizes", Src: src("000", "9", "14, 10 отаудан")},
		{Msg: "learn.history.var.pre1949", Src: src("002", "33", "1949-жылга чейинки"), Try: "pre1949"},
		{Msg: "learn.history.var.pre1949.rules", Src: src("RULES.md", "§4", "does not put the first stone back in the origin hole")},
		{Msg: "learn.history.var.esen", Src: src("004", "17", "Есен коргал")},
		{Msg: "learn.history.var.alty", Src: src("004", "17", "Алты коргоол")},
	}},
	{"holes", "learn.history.holes", []fact{
		{Msg: "learn.history.holes.numbers", Src: src("004", "87", "пронумерованы слева направо от 1 до 9")},
		{Msg: "learn.history.holes.names", Src: src("004", "87-98", "Традиционные названия лунок")},
		{Msg: "learn.history.holes.otau", Src: src("004", "100", "(кирг. үй, каз. отау — дом)")},
		{Msg: "learn.history.holes.kazan", Src: src("004", "100", "(кирг. казан, каз. қазан — котёл)")},
		{Msg: "learn.history.holes.tuzdik", Src: src("000", "106", "ежелде – “тұзды үй”")},
		{Msg: "learn.history.holes.salt", Src: src("004", "106", "(кирг. туз, каз. тұздық — соль)")},
	}},
	{"family", "learn.history.family", []fact{
		{Msg: "learn.history.family.mancala", Src: src("003", "2", "Принадлежит к семейству манкала")},
		{Msg: "learn.history.family.list", Src: src("000", "54", "мысырлық калах, Моңғолияда эсон коргоол")},
		{Msg: "learn.history.family.omweso", Src: src("000", "56", "(32 отау) те бірақ құмалақ саны аз (64 құмалақ)")},
		{Msg: "learn.history.family.olinda", Src: src("000", "56", "жеті отаулық олинда калия")},
		{Msg: "learn.history.family.pic", Src: src("002", "4", "Анадолу оюну Piç")},
	}},
}

// manasVerse is the passage of the epic Manas that seed 004 quotes (lines
// 128–139), in Kyrgyz as it gives it.
var manasVerse = []string{
	"Жалпак жыгач чаптырып,", "Чараларын оюшуп", "Бир жагына бир тогуз,", "Бир жагына бир тогуз,",
	"Үй чыгарып коюшуп…", "Ою менен олтуруп,", "Ташын салып толтуруп,", "Тогуз коргоол ойноду,",
	"Ордо, тогуз коргоол деп,", "Жаш Манас кылып койгону…", "Тогуздан коргоол салганы,", "Бу Манастан калганы…",
}

// seedLang is the language each seed is written in, for the quote's lang
// attribute.
var seedLang = map[string]string{"000": "kk", "002": "ky", "003": "ru", "004": "ru"}

// localize returns the sections with their texts and citations in lang: a
// seed's fact cites the work by name and quotes its words; a rule that only
// the project's settled rules state cites nothing. On kk-Latn pages the
// quotations are written in the Latin alphabet, as the page is.
func localize(cat *i18n.Catalog, lang string, secs []section) []section {
	out := make([]section, len(secs))
	for i, sec := range secs {
		sec.Facts = append([]fact(nil), sec.Facts...)
		for j := range sec.Facts {
			f := &sec.Facts[j]
			f.Text = cat.T(lang, f.Msg, f.Args...)
			if !f.Src.Seed() {
				continue
			}
			// The label and the work's name are two texts of the catalog, so that
			// the name is never an argument cut into a sentence.
			f.Cite = cat.T(lang, "learn.source.label") + " " + cat.T(lang, citeKey(f.Src.Doc))
			f.Quote, f.QuoteLang = f.Src.Quote, seedLang[f.Src.Doc]
			if lang == "kk-Latn" {
				f.Quote, f.QuoteLang = i18n.Latin(f.Quote), f.QuoteLang+"-Latn"
				f.Verse = slices.Clone(f.Verse)
				for k, line := range f.Verse {
					f.Verse[k] = i18n.Latin(line)
				}
			}
		}
		out[i] = sec
	}
	return out
}

// citeKey is the catalog key of a seed's name as the pages cite it.
func citeKey(doc string) string { return "learn.cite." + doc }

// Cited reports, for each fact of the page at path, by its catalog key,
// whether the page cites a source for it (a named work), false for the
// rules only the project's settled rules state.
func Cited(path string) map[string]bool {
	m := map[string]bool{}
	for _, sec := range pageSections()[path] {
		for _, f := range sec.Facts {
			m[f.Msg] = f.Src.Seed()
		}
	}
	return m
}

// rulesSections is /rules: docs/rules.md's rules, each with the seed that says
// it (or docs/rules.md, not cited on the page, where only the project's
// settled rules say it), and the seeds' worked examples drawn from their
// positions.
var rulesSections = []section{
	{"board", "learn.rules.board", []fact{
		{Msg: "learn.rules.board.set", Src: src("000", "68", "2 қазан, 18 отау, 162 құмалақтан"), Diagram: "start"},
		{Msg: "learn.rules.board.players", Src: src("000", "70", "бастаушы үшін – ақ жағы")},
		{Msg: "learn.rules.board.lot", Src: src("000", "83", "жеребемен немесе қарсыластардың келісімімен")},
		{Msg: "learn.rules.board.numbers", Src: src("004", "87", "пронумерованы слева направо от 1 до 9 со стороны каждого игрока")},
	}},
	{"move", "learn.rules.move", []fact{
		{Msg: "learn.rules.move.sow", Src: src("004", "102", "начиная с этой же лунки, раскладывает их по одному против часовой стрелки")},
		{Msg: "learn.rules.move.single", Src: src("000", "100", "жалғыз құмалақ көрші отауға жүргенде")},
		{Msg: "learn.rules.move.whole", Src: src("000", "102", "2-3 құмалақ бөліп алып жүруге болмайды")},
		{Msg: "learn.rules.move.lap", Src: src("RULES.md", "§2", "laps the board")},
	}},
	{"capture", "learn.rules.capture", []fact{
		{Msg: "learn.rules.capture.even", Src: src("000", "87", "жұп қылса")},
		{Msg: "learn.rules.capture.none", Src: src("000", "89", "өз отауымызға түссе, құмалақ ұтып алынбайды")},
		{Msg: "learn.rules.capture.example", Src: src("000", "91", "соңғысы қарсыласының №6 отауына барып түседі"), Diagram: "ex1"},
	}},
	{"tuzdik", "learn.rules.tuzdik", []fact{
		{Msg: "learn.rules.tuzdik.make", Src: src("000", "108-110", "екі құмалағы бар отауына")},
		{Msg: "learn.rules.tuzdik.stones", Src: src("000", "112", "жүріс жасалған сайын тұздық алынған отауға түсетін бір құмалақ")},
		{Msg: "learn.rules.tuzdik.sign", Src: src("000", "114", "Х деген шартты таңбамен")},
		{Msg: "learn.rules.tuzdik.example", Src: src("000", "116-128", "№7 отау – қостаушының меншігіне айналады"), Diagram: "ex2-before"},
		{Msg: "learn.rules.tuzdik.after", Src: src("000", "121-126", "осы отауға тұздық жариялайды"), Diagram: "ex2-after"},
		{Msg: "learn.rules.tuzdik.once", Src: src("000", "130", "Тұздық ойында бір рет алынады")},
		{Msg: "learn.rules.tuzdik.nine", Src: src("000", "130", "№9 отаудан ешқашан алынбайды")},
		{Msg: "learn.rules.tuzdik.same", Src: src("000", "131-133", "аттас отаулардан алынбайды")},
		{Msg: "learn.rules.tuzdik.forever", Src: src("004", "110", "Отказаться от туздыка или изменить его положение нельзя")},
		{Msg: "learn.rules.tuzdik.auto", Src: src("RULES.md", "§2", "the mover cannot decline it")},
	}},
	{"end", "learn.rules.end", []fact{
		{Msg: "learn.rules.end.win", Src: src("004", "113", "набор в свой казан 82 кумалака или более")},
		{Msg: "learn.rules.end.draw", Src: src("004", "115", "При наборе обоими игроками по 81 кумалаку объявляется ничья")},
		{Msg: "learn.rules.end.atsyrau", Src: src("000", "139", "жүріссіз қалуы – атсырау деп аталады")},
		{Msg: "learn.rules.end.extra", Src: src("004", "117", "Игрок Б делает свой очередной ход")},
		{Msg: "learn.rules.end.example", Src: src("000", "142-147", "Ол №9 отаудағы 4 құмалағын таратады"), Diagram: "ex3-before"},
		{Msg: "learn.rules.end.after", Src: src("000", "149-158", "Есеп 76-86. Қостаушы ұтты."), Diagram: "ex3-after"},
		{Msg: "learn.rules.end.playout", Src: src("000", "162", "82 құмалақ жинаса да")},
		{Msg: "learn.rules.end.other", Src: src("RULES.md", "§3", "resignation, agreed draw, loss on time")},
	}},
	{"notation", "learn.rules.notation", []fact{
		{Msg: "learn.rules.notation.sheet", Src: src("004", "124", "Каждый ход записывается двузначным числом")},
		{Msg: "learn.rules.notation.example", Src: src("RULES.md", "§6", "Moves are numbered in pairs")},
		{Msg: "learn.rules.notation.diagram", Src: src("004", "124", "Пустые лунки обозначаются прочерком")},
	}},
}

// keySections is /key: the signs, capacities and placements of seed 000.
var keySections = []section{
	{"signs", "key.signs", []fact{
		{Msg: "key.lead", Src: src("000", "9", "Бейсенбаев А.С. насихаттап келеді")},
		{Msg: "key.sign.unit", Src: src("000", "13", "Бірліктер-тастар(құмалақтар)")},
		{Msg: "key.sign.place", Src: src("000", "14", "Сан орны-отау")},
		{Msg: "key.sign.digit", Src: src("000", "15", "Сан белгісі-отаудағы тастар саны")},
		{Msg: "key.sign.zero", Src: src("000", "16", "Нөл-бос отау")},
		{Msg: "key.sign.fraction", Src: src("000", "17", "Бөлшектік белгі-тұздық")},
		{Msg: "key.sign.equals", Src: src("000", "18", "Теңдік белгі-қазан")},
		{Msg: "key.sign.ops", Src: src("000", "19-22", "Қосу белгісі-ойда")},
	}},
	{"counting", "key.capacity.head", []fact{
		{Msg: "key.capacity", Args: []any{10, 9}, Src: src("000", "32", "Ондық санау жүйесі: 9 тас")},
		{Msg: "key.capacity", Args: []any{8, 7}, Src: src("000", "34", "Сегіздік санау жүйесі: 7 тас")},
		{Msg: "key.capacity", Args: []any{2, 1}, Src: src("000", "40", "Екілік санау жүйесі: 1 тас")},
		{Msg: "key.direction", Src: src("000", "42-46", "бір тас сағат тіліне қарсы келесі отауға түсіп")},
		{Msg: "key.boards", Src: src("000", "28", "оған тағы сондай тақта жалғау керек")},
	}},
	{"layouts", "key.layouts", []fact{
		{Msg: "key.rows", Src: src("000", "70", "бастаушы")},
		{Msg: "key.layout.add", Src: src("000", "26", "Құр қосылғыш қостауыштың соңғы отауынан")},
		{Msg: "key.layout.sub", Src: src("000", "26", "азайғыштың соңғы санының бойында")},
		{Msg: "key.layout.mul", Src: src("000", "26", "Көбейтінді қостауыштың соңғы отауынан")},
		{Msg: "key.layout.div", Src: src("000", "26", "Бөлгіш бастауыштың бірінші отауынан")},
	}},
}

// seedDoc is a source document: its file under ../shared/seeds/ (for the
// tests), the catalog key of its name as the pages cite it (Name: what the
// work is, its title, publisher and year where its text gives them) and of
// what it covers (Msg).
type seedDoc struct{ Doc, File, Name, Msg string }

// learnSources are the works the facts cite (TestLearnSourcesExist), as the
// seeds' own text and header show them: 000 the Kazakh Wikipedia's article
// (its sections, "Тағы қараңыз" and "Сілтемелер", are Wikipedia's), 002
// Mancala World's article in a Kyrgyz translation (its last line names it),
// 003 a Russian article that names no author or publisher, 004 the Russian
// Wikipedia's article as of 2026 (its notes' dates).
var learnSources = []seedDoc{
	{"000", "000_a78ac2bc749ccddb.txt", "learn.cite.000", "learn.seed.000"},
	{"002", "002_e4999a880fd47659.txt", "learn.cite.002", "learn.seed.002"},
	{"003", "003_f64415aaedf0b900.txt", "learn.cite.003", "learn.seed.003"},
	{"004", "004_cc57f587195a771a.txt", "learn.cite.004", "learn.seed.004"},
}

// learnData is /rules and /history.
type learnData struct {
	Sections []section
	Sources  []seedDoc
	Holes    []holeRow // /history's table of the hole names
}

type holeRow struct {
	N                       int
	Kazakh, Kyrgyz, Meaning string
}

func (s *Site) pageRules(w http.ResponseWriter, r *http.Request) error {
	d := learnData{Sections: localize(s.kit.Catalog(), s.kit.Lang(r), rulesSections), Sources: learnSources}
	return s.kit.Render(w, http.StatusOK, "rules", s.kit.Page(r, "learn.rules.title", d))
}

func (s *Site) pageHistory(w http.ResponseWriter, r *http.Request) error {
	lang := s.kit.Lang(r)
	d := learnData{Sections: localize(s.kit.Catalog(), lang, historySections), Sources: learnSources}
	kk, ky := i18n.Holes("kk"), i18n.Holes("ky")
	if lang == "kk-Latn" {
		kk = i18n.Holes(lang)
	}
	gloss := i18n.Holes(lang) // the meanings, for ru and en (kk and ky read the names)
	for i := range 9 {
		d.Holes = append(d.Holes, holeRow{i + 1, kk[i].Name, ky[i].Name, gloss[i].Gloss})
	}
	return s.kit.Render(w, http.StatusOK, "history", s.kit.Page(r, "learn.history.title", d))
}

// Facts returns how many facts the page at path (/rules, /history, /key)
// states, each in a block of its own with its source; 0 for another path.
func Facts(path string) int {
	n := 0
	for _, sec := range pageSections()[path] {
		n += len(sec.Facts)
	}
	return n
}

// pageSections are the sections of each page, by its path.
func pageSections() map[string][]section {
	return map[string][]section{"/history": historySections, "/rules": rulesSections, "/key": keySections}
}

// Diagrams returns the names of the drawings served at
// /learn/diagram/{name}.svg, sorted.
func Diagrams() []string { return slices.Sorted(maps.Keys(learnDiagrams)) }

// learnDiagrams are the drawings of the pages, each a position and what to
// mark on it: the seeds' worked examples (docs/rules.md §5) redrawn by package
// svg from the positions, never by hand, and each variant's start.
var learnDiagrams = map[string]func() (toguz.Position, svg.Options, error){
	"start":           startOf(toguz.Standard()),
	"start-bestemshe": startOf(toguz.Bestemshe()),
	"start-seven":     startOf(toguz.Seven()),
	"ex1": func() (toguz.Position, svg.Options, error) {
		return played(toguz.StartPosition(), 7)
	},
	"ex2-before": diagramOf(example2),
	"ex2-after": func() (toguz.Position, svg.Options, error) {
		p, err := toguz.ParseDiagram(example2, toguz.Standard())
		if err != nil {
			return p, svg.Options{}, err
		}
		return played(p, 7)
	},
	"ex3-before": diagramOf(example3),
	"ex3-after": func() (toguz.Position, svg.Options, error) {
		p, err := toguz.ParseDiagram(example3, toguz.Standard())
		if err != nil {
			return p, svg.Options{}, err
		}
		for _, m := range []toguz.Move{9, 1, 9} {
			if p, err = p.Play(m); err != nil {
				return p, svg.Options{}, err
			}
		}
		return played(p, 1)
	},
}

// The seeds' example positions as docs/rules.md §5 (and seed 000 lines 116–119
// and 142–145) write them.
const (
	example2 = "– 10 10 1 11 11 11 11 11 (0)\n10 10 10 10 10 10 2 11 1 (12)\nBlack to move\n"
	example3 = "1 1 1 X 1 – – – – (78)\n– – – – – – X – 4 (76)\n"
)

func startOf(r toguz.Rules) func() (toguz.Position, svg.Options, error) {
	return func() (toguz.Position, svg.Options, error) {
		p, err := toguz.NewPosition(r)
		return p, svg.Options{}, err
	}
}

func diagramOf(d string) func() (toguz.Position, svg.Options, error) {
	return func() (toguz.Position, svg.Options, error) {
		p, err := toguz.ParseDiagram(d, toguz.Standard())
		return p, svg.Options{}, err
	}
}

// played returns the position after m with the move marked.
func played(p toguz.Position, m toguz.Move) (toguz.Position, svg.Options, error) {
	after, err := p.Play(m)
	if err != nil {
		return p, svg.Options{}, err
	}
	from, to := svg.LastMove(p, m)
	return after, svg.Options{From: from, To: to}, nil
}

// learnDiagram serves /learn/diagram/{name}.svg. The page shows it as an
// image whose alternative text is the fact's own, in the page's language,
// so the drawing's English title stays out of the page.
func (s *Site) learnDiagram(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutSuffix(r.PathValue("name"), ".svg")
	f, known := learnDiagrams[name]
	if !ok || !known {
		http.NotFound(w, r)
		return
	}
	p, opt, err := f()
	if err == nil {
		lang, cat := s.kit.Lang(r), s.kit.Catalog()
		opt.Labels = site.BoardLabels(cat, lang, p)
		if name == "start" {
			names := i18n.HoleNames(lang)
			opt.HoleNames = names[:]
		}
		var b []byte
		if b, err = svg.Render(p, opt); err == nil {
			w.Header().Set("Content-Type", "image/svg+xml")
			w.Header().Set("Cache-Control", "public, max-age=3600")
			w.Header().Set("Vary", "Cookie, Accept-Language")
			w.Write(b)
			return
		}
	}
	s.kit.Logger().Error("learn diagram", "name", name, "err", err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// ---- /key ----

// MaxKeyDigits bounds the operands of /key, below internal/abacus's: the page
// draws every step's boards, and with 12 digits a calculation takes at
// most about 200 steps on two boards (TestKeyPageBounded).
const MaxKeyDigits = 12

var keyOps = []struct {
	Value, Label string
	Op           abacus.Op
}{{"add", "key.op.add", abacus.Add}, {"sub", "key.op.sub", abacus.Sub}, {"mul", "key.op.mul", abacus.Mul}, {"div", "key.op.div", abacus.Div}}

type keyData struct {
	Base      int
	A, B, Op  string
	Bases     []int
	Ops       any
	Sections  []section
	Sources   []seedDoc
	Error     string
	Calc      *keyCalc
	MaxDigits int
}

// keyCalc is a calculation as the page draws it.
type keyCalc struct {
	Sentence string
	Steps    []keyStep
}

type keyStep struct {
	N       int
	Heading string
	Moves   []string
	Boards  []keyBoard
	Kazan   [2]int
}

// keyBoard is one of the joined boards: its second row's holes from left
// to right (hole numbers falling) above its first row's.
type keyBoard struct {
	N      int
	Top    []keyHole
	Bottom []keyHole
}

type keyHole struct {
	Hole, Stones int
	Mark, From   bool
	To           bool
}

func (s *Site) pageKey(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	d := keyData{Base: 8, A: "347", B: "56", Op: "add", Ops: keyOps, Sections: localize(cat, lang, keySections), Sources: learnSources[:1], MaxDigits: MaxKeyDigits}
	for b := abacus.MinBase; b <= abacus.MaxBase; b++ {
		d.Bases = append(d.Bases, b)
	}
	if q.Has("base") || q.Has("a") || q.Has("b") || q.Has("op") {
		d.A, d.B, d.Op = strings.TrimSpace(q.Get("a")), strings.TrimSpace(q.Get("b")), q.Get("op")
		d.Base, _ = strconv.Atoi(q.Get("base"))
	}
	c, err := keyCompute(d.Base, d.A, d.Op, d.B)
	// The form shows the operands back to be mended, no longer than a
	// number the form takes.
	d.A, d.B = clip(d.A, 4*MaxKeyDigits), clip(d.B, 4*MaxKeyDigits)
	status := http.StatusOK
	if err != nil {
		e := s.kit.AsError(r, err)
		d.Error, status = s.kit.Message(r, e), e.Status
	} else {
		d.Calc = drawKey(cat, lang, c)
	}
	return s.kit.Render(w, status, "key", s.kit.Page(r, "key.title", d))
}

// keyCompute parses the form and calculates, every error one of the
// catalog's.
func keyCompute(base int, a, opName, b string) (*abacus.Calc, error) {
	if base < abacus.MinBase || base > abacus.MaxBase {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.base")
	}
	var op abacus.Op
	for _, o := range keyOps {
		if o.Value == opName {
			op = o.Op
		}
	}
	if op == 0 {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.op")
	}
	var nums [2]abacus.Number
	for i, s := range []string{a, b} {
		if len(strings.TrimLeft(s, "0")) > MaxKeyDigits {
			return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.too_long", MaxKeyDigits, abacus.MaxBoards)
		}
		n, err := abacus.Parse(s, base)
		if err != nil || s == "" {
			return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.digit", truncate(s, 20), base, base-1)
		}
		nums[i] = n
	}
	c, err := abacus.Compute(base, nums[0], op, nums[1])
	switch {
	case errors.Is(err, abacus.ErrNegative):
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.negative")
	case errors.Is(err, abacus.ErrZero):
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.zero")
	case err != nil:
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "apierr.key.too_long", MaxKeyDigits, abacus.MaxBoards)
	}
	return c, nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// drawKey turns the steps into boards of nine holes each, the holes a
// step took stones from and put them into marked.
func drawKey(cat *i18n.Catalog, lang string, c *abacus.Calc) *keyCalc {
	kc := &keyCalc{Sentence: c.Sentence()}
	for i, st := range c.Steps {
		ks := keyStep{N: i + 1, Heading: st.Heading(cat, lang, c.Op), Kazan: st.Layout.Kazan}
		from, to := map[abacus.Ref]bool{}, map[abacus.Ref]bool{}
		for _, m := range st.Moves {
			ks.Moves = append(ks.Moves, m.Text(cat, lang))
			from[m.From], to[m.To] = true, true
		}
		l := st.Layout
		hole := func(row abacus.Row, h int) keyHole {
			ref := abacus.Ref{Row: row, Hole: h}
			return keyHole{Hole: h, Stones: l.Stones(row, h), Mark: l.Mark[row] == h, From: from[ref], To: to[ref]}
		}
		for b := range l.Boards() {
			kb := keyBoard{N: b + 1}
			for k := range abacus.BoardHoles {
				h := b*abacus.BoardHoles + k + 1
				kb.Top = append(kb.Top, hole(abacus.Second, l.Opposite(h)))
				kb.Bottom = append(kb.Bottom, hole(abacus.First, h))
			}
			ks.Boards = append(ks.Boards, kb)
		}
		kc.Steps = append(kc.Steps, ks)
	}
	return kc
}
