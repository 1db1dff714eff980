package csstoken

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tdewolff/parse/v2/css"
)

// TestTokenize: comments leave no token, and whitespace around and between
// them is one token however it is split.
func TestTokenize(t *testing.T) {
	got := Tokenize("a /*x*/  /*y*/\n{b:1px}/**/")
	want := []Token{
		{css.IdentToken, "a"},
		{css.WhitespaceToken, " "},
		{css.LeftBraceToken, "{"},
		{css.IdentToken, "b"},
		{css.ColonToken, ":"},
		{css.DimensionToken, "1px"},
		{css.RightBraceToken, "}"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := Tokenize(""); len(got) != 0 {
		t.Errorf("empty text: %v", got)
	}
}
