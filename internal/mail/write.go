package mail

import (
	"strings"

	"github.com/toguz/toguz/internal/i18n"
)

// Write returns the message kind to address to, in lang: its subject is
// the catalog's "mail.KIND.subject", its body "mail.KIND.body" formatted
// with args, then the site's signature "mail.signature".
func Write(cat *i18n.Catalog, lang, to, kind string, args ...any) Message {
	body := cat.T(lang, "mail."+kind+".body", args...)
	return Message{
		To:      to,
		Subject: cat.T(lang, "mail."+kind+".subject"),
		Body:    strings.TrimSpace(body) + "\n\n-- \n" + cat.T(lang, "mail.signature") + "\n",
	}
}
