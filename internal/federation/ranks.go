package federation

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/toguz/toguz/internal/i18n"
)

// Rank is one rank of a federation's system: its code, its names in the
// site's languages and the norm that earns it. Ranks are listed lowest
// first.
type Rank struct {
	Code  string            `json:"code"`
	Names map[string]string `json:"names"` // language → name; kk-Latn is transliterated from kk when absent
	Norm  Norm              `json:"norm"`
}

// Norm is what earns a rank in one event: at least Games rated games with
// a performance of at least Performance (Ra + dp by table 8.1(a)), and
// Text, the federation's own wording of the norm (language → text), for
// norms no number says (a place in a championship).
type Norm struct {
	Games       int               `json:"games,omitempty"`
	Performance int               `json:"performance,omitempty"`
	Text        map[string]string `json:"text,omitempty"`
}

// Ranks is a federation's rank system, lowest first.
type Ranks []Rank

var rankCode = regexp.MustCompile(`^[A-Za-z0-9_-]{1,12}$`)

// Validate says which rank is malformed.
func (rs Ranks) Validate() error {
	seen := map[string]bool{}
	for i, r := range rs {
		switch {
		case !rankCode.MatchString(r.Code):
			return fmt.Errorf("federation: rank %d: code %q is not 1 to 12 letters, digits, - or _", i+1, r.Code)
		case seen[r.Code]:
			return fmt.Errorf("federation: rank %d: code %q twice", i+1, r.Code)
		case r.Names["en"] == "" || r.Names["kk"] == "" || r.Names["ky"] == "" || r.Names["ru"] == "":
			return fmt.Errorf("federation: rank %q: a name in en, kk, ky and ru is needed", r.Code)
		case r.Norm.Games < 0 || r.Norm.Games > 100 || r.Norm.Performance < 0 || r.Norm.Performance > 4000:
			return fmt.Errorf("federation: rank %q: norm out of range", r.Code)
		}
		seen[r.Code] = true
	}
	return nil
}

// Name returns the rank's name in lang, the code when unknown.
func (rs Ranks) Name(code, lang string) string {
	for _, r := range rs {
		if r.Code == code {
			if n := r.Names[lang]; n != "" {
				return n
			}
			if lang == "kk-Latn" && r.Names["kk"] != "" {
				return i18n.Latin(r.Names["kk"])
			}
			if n := r.Names["en"]; n != "" {
				return n
			}
		}
	}
	return code
}

// Order returns the rank's place in the system (1 the lowest), 0 unknown.
func (rs Ranks) Order(code string) int {
	for i, r := range rs {
		if r.Code == code {
			return i + 1
		}
	}
	return 0
}

// Highest returns the highest of codes in the system, "" none.
func (rs Ranks) Highest(codes []string) string {
	best, bo := "", 0
	for _, c := range codes {
		if o := rs.Order(c); o > bo {
			best, bo = c, o
		}
	}
	return best
}

// ParseRanks reads a rank system as the store keeps it; "" gives def.
func ParseRanks(s string, def Ranks) (Ranks, error) {
	if s == "" {
		return def, nil
	}
	var rs Ranks
	if err := json.Unmarshal([]byte(s), &rs); err != nil {
		return nil, fmt.Errorf("federation: ranks: %w", err)
	}
	return rs, rs.Validate()
}

func names(en, kk, ky, ru string) map[string]string {
	return map[string]string{"en": en, "kk": kk, "ky": ky, "ru": ru}
}

// NationalRanks is the rank system of the Kazakh and Kyrgyz national
// federations (the unified sports classification both inherited): the
// 3rd to 1st class, candidate master of sport, master of sport, master of
// sport of international class and honoured master of sport. The norms'
// numbers are the site's defaults, a performance over a whole event; a
// federation's officers set its own.
var NationalRanks = Ranks{
	{Code: "3", Names: names("3rd class", "3-разряд", "3-разряд", "3-й разряд"), Norm: Norm{Games: 7, Performance: 1400}},
	{Code: "2", Names: names("2nd class", "2-разряд", "2-разряд", "2-й разряд"), Norm: Norm{Games: 7, Performance: 1550}},
	{Code: "1", Names: names("1st class", "1-разряд", "1-разряд", "1-й разряд"), Norm: Norm{Games: 9, Performance: 1700}},
	{Code: "CMS", Names: names("candidate master of sport", "спорт шеберлігіне үміткер", "спорт чеберлигине талапкер",
		"кандидат в мастера спорта"), Norm: Norm{Games: 9, Performance: 1900}},
	{Code: "MS", Names: names("master of sport", "спорт шебері", "спорт чебери", "мастер спорта"),
		Norm: Norm{Games: 9, Performance: 2100}},
	{Code: "MSIC", Names: names("master of sport of international class", "халықаралық дәрежедегі спорт шебері",
		"эл аралык класстагы спорт чебери", "мастер спорта международного класса"), Norm: Norm{Games: 9, Performance: 2300}},
	{Code: "HMS", Names: names("honoured master of sport", "еңбек сіңірген спорт шебері", "эмгек сиңирген спорт чебери",
		"заслуженный мастер спорта"), Norm: Norm{Text: names(
		"awarded by the state for outstanding results at world and continental championships",
		"әлем және құрлық чемпионаттарындағы үздік нәтижелері үшін мемлекет береді",
		"дүйнө жана континент чемпионаттарындагы мыкты натыйжалары үчүн мамлекет берет",
		"присваивается государством за выдающиеся результаты на чемпионатах мира и континента")}},
}

// WorldRanks are the international titles the world federation awards.
var WorldRanks = Ranks{
	{Code: "IM", Names: names("international master", "халықаралық шебер", "эл аралык чебер", "международный мастер"),
		Norm: Norm{Games: 9, Performance: 2300}},
	{Code: "GM", Names: names("grandmaster", "гроссмейстер", "гроссмейстер", "гроссмейстер"),
		Norm: Norm{Games: 9, Performance: 2450}},
}

// DefaultRanks returns the embedded rank system of a federation's level.
func DefaultRanks(level Level) Ranks {
	if level == World {
		return WorldRanks
	}
	return NationalRanks
}
