package view

import "github.com/domsnap/domsnap/domtree"

// ScanLimit is the view scan with its budget as a parameter, so a test can
// compare a bounded scan with an unbounded one.
func ScanLimit(t *domtree.Tree, rows []Row, limit int) View { return scan(t.Root(), rows, limit) }
