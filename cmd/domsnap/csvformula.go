package main

// Spreadsheets read a CSV cell that begins with =, +, -, @, a tab or a
// carriage return as a formula, and a formula can fetch URLs or run
// commands when the file is opened. The text of an extracted string comes
// from the page, so a page could plant one; extract --format csv therefore
// prefixes such a cell with an apostrophe, which spreadsheets take as "this
// is text" and do not show (docs/reference.md#output-for-people).
//
// Only string values are touched: numbers and booleans are written by
// domsnap from typed values ("-5" is a number, never a formula), and field
// names match ^[a-z][a-z0-9_]*$. The JSON output is never changed.

// formulaGuard is the character put before a cell a spreadsheet would
// read as a formula.
const formulaGuard = "'"

// guardFormula returns s, prefixed with formulaGuard when its first byte
// starts a formula, and whether it did.
func guardFormula(s string) (string, bool) {
	if s == "" {
		return s, false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return formulaGuard + s, true
	}
	return s, false
}
