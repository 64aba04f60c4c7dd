package i18n

import (
	"strings"
	"unicode"
)

// latin maps each Kazakh Cyrillic letter to its spelling in the Latin
// alphabet of 2021 (Ä Ğ I/ı İ/i Ñ Ö Ş Ū Ü Y); the letters of Russian
// loan words (ё, ц, ч, щ, ъ, ь, э, ю, я) get their usual spellings, ц as
// s the way Kazakh says it (позиция → pozisia, секция → seksia).
var latin = map[rune]string{
	'а': "a", 'ә': "ä", 'б': "b", 'в': "v", 'г': "g", 'ғ': "ğ", 'д': "d",
	'е': "e", 'ё': "io", 'ж': "j", 'з': "z", 'и': "i", 'й': "i", 'к': "k",
	'қ': "q", 'л': "l", 'м': "m", 'н': "n", 'ң': "ñ", 'о': "o", 'ө': "ö",
	'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ұ': "ū", 'ү': "ü",
	'ф': "f", 'х': "h", 'һ': "h", 'ц': "s", 'ч': "ç", 'ш': "ş", 'щ': "şş",
	'ъ': "", 'ы': "y", 'і': "ı", 'ь': "", 'э': "e", 'ю': "iu", 'я': "ia",
	'А': "A", 'Ә': "Ä", 'Б': "B", 'В': "V", 'Г': "G", 'Ғ': "Ğ", 'Д': "D",
	'Е': "E", 'Ё': "Io", 'Ж': "J", 'З': "Z", 'И': "İ", 'Й': "İ", 'К': "K",
	'Қ': "Q", 'Л': "L", 'М': "M", 'Н': "N", 'Ң': "Ñ", 'О': "O", 'Ө': "Ö",
	'П': "P", 'Р': "R", 'С': "S", 'Т': "T", 'У': "U", 'Ұ': "Ū", 'Ү': "Ü",
	'Ф': "F", 'Х': "H", 'Һ': "H", 'Ц': "S", 'Ч': "Ç", 'Ш': "Ş", 'Щ': "Şş",
	'Ъ': "", 'Ы': "Y", 'І': "I", 'Ь': "", 'Э': "E", 'Ю': "Iu", 'Я': "Ia",
}

// Latin transliterates Kazakh from Cyrillic into the Latin alphabet of
// 2021. Other characters (digits, punctuation, fmt verbs, Latin letters)
// are kept as they are. Two rules go beyond letter by letter: и before я
// or ю is not written, since я and ю begin with the i already (құпия →
// qūpia, Түркия → Türkia, not qūpiia), and a letter written with two
// (Ю → Iu) is all capitals inside a word in capitals (ЮНЕСКО → IUNESKO).
func Latin(s string) string {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		l, ok := latin[r]
		if !ok {
			b.WriteRune(r)
			continue
		}
		if (r == 'и' || r == 'И') && i+1 < len(rs) && strings.ContainsRune("яюЯЮ", rs[i+1]) {
			i++
			l = latin[rs[i]]
			if r == 'И' && !unicode.IsUpper(rs[i]) {
				l = strings.ToUpper(l[:1]) + l[1:] // Ия → Ia
			}
		}
		if len(l) > 1 && unicode.IsUpper(rs[i]) && inCapitals(rs, i) {
			l = strings.ToUpper(l)
		}
		b.WriteString(l)
	}
	return b.String()
}

// inCapitals reports whether the letter at i stands beside another capital
// letter in its word, so that the word is written in capitals.
func inCapitals(rs []rune, i int) bool {
	return (i+1 < len(rs) && unicode.IsUpper(rs[i+1])) || (i > 0 && unicode.IsUpper(rs[i-1]))
}
