package csstoken

import (
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// Token is one CSS token.
type Token struct {
	Type css.TokenType
	Data string
}

// Tokenize runs the CSS tokenizer over src, leaving out comments and
// keeping one whitespace token for each run of whitespace.
func Tokenize(src string) []Token {
	l := css.NewLexer(parse.NewInputString(src))
	var out []Token
	for {
		tt, data := l.Next()
		switch tt {
		case css.ErrorToken:
			return out
		case css.CommentToken:
			continue
		case css.WhitespaceToken:
			if len(out) > 0 && out[len(out)-1].Type == css.WhitespaceToken {
				continue
			}
		}
		out = append(out, Token{tt, string(data)})
	}
}
