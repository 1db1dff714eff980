// Package argcheck checks a tool call's arguments against the tool's
// published input schema (schema/tools/*.input.json) before the server
// does any work.
//
// It knows the part of JSON Schema 2020-12 those schemas are written in and
// nothing more: type, const, enum, local $ref into $defs, properties,
// required, additionalProperties, items, minItems, maxItems, minLength,
// maxLength, pattern, minimum, maximum, not, allOf and if/then/else, plus
// the annotations ($schema, $defs, description, default, title). Compile
// refuses any other keyword, so a schema that grows one fails loudly when
// the server starts, never by accepting what it should refuse.
//
// A general validator would do the same job, but the ones available
// compile the meta-schemas of every draft in their package initialiser,
// which every run of the command paid for (about 1.7 MB and 10 ms before
// main) whatever the subcommand; here nothing happens until Compile.
//
// A failure names one place in the arguments, as a JSON pointer: the first
// innermost failure, keywords taken in the order type, const, enum, $ref,
// the object keywords (required, then the properties in key order, then
// additionalProperties), the array keywords (minItems, maxItems, items),
// the string keywords (minLength, maxLength, pattern), the number keywords
// (minimum, maximum), then not, allOf and if/then/else. The message built
// from it never quotes a value.
package argcheck
