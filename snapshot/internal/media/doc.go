// Package media evaluates CSS media query lists (Media Queries level 4)
// against one fixed screen, so that offline analysis applies the same
// @media blocks and <style media> sheets a browser showing that screen
// applies.
//
// A query list is read with the CSS tokenizer the style sheets are read with
// and evaluated in the same pass: media types with not and only, and, or and
// not between conditions, plain features ("min-width: 40em"), boolean
// features ("(hover)"), and the range form, also with two comparisons
// ("(400px <= width < 900px)"). Values are lengths in absolute units, em and
// rem (against the screen's font size) and the viewport units, ratios,
// resolutions in dppx, x, dpi and dpcm, integers and keywords; calc(),
// min(), max(), clamp(), abs(), sign() and round() of them are computed.
//
// Conditions are three-valued, as the specification says: a feature this
// package does not know, a value it cannot read, and any other parenthesised
// or functional text is "unknown", which not leaves unknown, and which is
// false where the query ends. A query that does not parse is "not all", and
// only that query of its list. Which features and values count as known
// follows Chromium 156: a feature Chromium does not evaluate (inverted-colors,
// video-dynamic-range, prefers-reduced-data, ...) is unknown here as there.
// Lengths relative to font metrics (ex, ch, cap, ic, lh and their root
// forms) depend on installed fonts and are unknown here, where a browser
// computes them.
//
// # Limits
//
// Evaluation is one pass over the tokens; nesting of parentheses and math
// functions is followed with an explicit stack or bounded by MaxDepth, so
// hostile text costs time linear in its length.
//
// # Concurrency
//
// Everything here is a pure function of its arguments.
package media
