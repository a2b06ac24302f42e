package ui

import "strings"

// LangFromEnv picks the language from LC_ALL, then LANG, as getenv gives
// them (the process's, or a remote player's session): French for fr*,
// English otherwise.
func LangFromEnv(getenv func(string) string) Lang {
	for _, v := range []string{"LC_ALL", "LANG"} {
		if s := getenv(v); s != "" {
			if strings.HasPrefix(strings.ToLower(s), "fr") {
				return French
			}
			return English
		}
	}
	return English
}
