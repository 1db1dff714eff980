package domsnap

import (
	_ "github.com/andybalholm/cascadia"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/jstemmer/go-junit-report/v2/parser/gotest"
	_ "github.com/mafredri/cdp"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/tdewolff/parse/v2/css"
	_ "golang.org/x/net/html"
	_ "golang.org/x/net/html/charset"
	_ "pgregory.net/rapid"
)
