package i18n

// Plural returns the plural forms of key in lang, CLDR form name → text, for
// a page's script to choose among with the browser's CLDR rules
// (Intl.PluralRules); a plain text comes as its "other" form.
func (c *Catalog) Plural(lang, key string) map[string]string {
	t, ok := c.lookup(lang, key)
	if !ok {
		return map[string]string{"other": key}
	}
	if t.forms == nil {
		return map[string]string{"other": t.plain}
	}
	out := make(map[string]string, len(t.forms))
	for f, s := range t.forms {
		out[f] = s
	}
	return out
}
