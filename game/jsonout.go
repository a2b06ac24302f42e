package game

import (
	"encoding/json"
	"fmt"
)

// AppendJSONString appends s as a JSON string, as json.Marshal writes it:
// between quotes as it is when it is printable ASCII without quotes,
// backslashes or the <, > and & that json.Marshal escapes, escaped by
// json.Marshal otherwise. Writers of the scores' JSON use it rather than
// marshalling a struct, which costs them most of their time.
func AppendJSONString(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(s)
			if err != nil { // a string always marshals
				panic(fmt.Sprintf("game: writing %q: %v", s, err))
			}
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}
