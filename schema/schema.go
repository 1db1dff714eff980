package schema

import "embed"

// Files holds the schema files, named as in the repository:
// request.schema.json, result.schema.json, observation.schema.json and
// projection.schema.json. Each file's $id is BaseURL followed by its name,
// and the files refer to one another by those names.
//
//go:embed *.schema.json
var Files embed.FS

// BaseURL is the prefix of every schema's $id.
const BaseURL = "https://github.com/domsnap/domsnap/schema/"

// The schema file names.
const (
	Request     = "request.schema.json"
	Result      = "result.schema.json"
	Observation = "observation.schema.json"
	Projection  = "projection.schema.json"
)

// Names lists the schema file names.
func Names() []string { return []string{Request, Result, Observation, Projection} }
