package limits

import "time"

// Request bounds (docs/reference.md#the-request).
const (
	// MaxCollectionIndex is the highest zero-based visible index a request may name.
	MaxCollectionIndex = 15
	// MinFields and MaxFields bound the number of fields in one request.
	MinFields = 1
	MaxFields = 8
	// MaxColumn is the highest column index a field may name.
	MaxColumn = 15
	// MaxListColumn is the only column a list field may name: a list item has one column.
	MaxListColumn = 0
	// MaxFormColumn is the highest form column (label, role, disabled, checked, required).
	MaxFormColumn = 4
	// DefaultRowLimit is used when a request names no row_limit.
	DefaultRowLimit = 20
	// MinRowLimit and MaxRowLimit bound row_limit.
	MinRowLimit = 1
	MaxRowLimit = 50
	// MaxNameLength is the longest field name, in bytes (names are ASCII).
	MaxNameLength = 64
)

// Scan budgets, in nodes visited (docs/reference.md#finding-the-collection, #rows, #cell-text and #form-columns).
const (
	// CollectionScanNodes bounds the main-document walk that looks for the collection.
	CollectionScanNodes = 8192
	// RowScanNodes bounds the walk under a collection that enumerates its rows.
	RowScanNodes = 4096
	// CellNodes bounds one cell summary, label resolution included.
	CellNodes = 256
)

// Text bounds, in UTF-16 code units (docs/reference.md#cell-text and #form-columns).
const (
	// CellUnits is the most text one cell summary retains.
	CellUnits = 256
	// MaxIDChars is how much of an aria-labelledby value is read.
	MaxIDChars = 1024
	// MaxLabels is the number of label elements resolved for one control.
	MaxLabels = 8
)

// Output bounds (docs/reference.md#types, #the-result and #the-observation).
const (
	// ExtractionBytes is the largest canonical JSON of one extraction result.
	ExtractionBytes = 65536
	// MaxSafeInteger bounds integer cells in both directions (2^53 - 1).
	MaxSafeInteger = 9007199254740991
	// ModelBytes is the default byte budget of an observation's model projection.
	ModelBytes = 16384
	// MinModelBytes is a budget that always holds the revision, the artifact
	// reference and an omitted extraction (docs/reference.md#the-observation promises 1,024 is enough).
	MinModelBytes = 1024
	// MaxInventoryPerKind is how many visible collections of one kind an inventory lists.
	MaxInventoryPerKind = 16
)

// Page-view bounds (docs/reference.md#the-page-view).
const (
	// ViewScanNodes bounds the one walk that gathers a page's controls,
	// regions and text.
	ViewScanNodes = 8192
	// MaxControls is how many controls a page view lists.
	MaxControls = 256
	// MaxRegions is how many regions (landmarks and headings) a page view lists.
	MaxRegions = 64
	// MaxOptions is how many options of one <select> a control record lists.
	MaxOptions = 32
	// ProseUnits is the most page text, in UTF-16 code units, a page view keeps.
	ProseUnits = 2048
	// MaxRecordNumber is the highest number n of an action reference
	// a<sequence>.<n> or a region reference g<sequence>.<n>: a live
	// session keeps an element's number while it stays in its document
	// and gives new elements higher ones (docs/reference.md#stable-numbers),
	// so numbers pass the count of records one view lists, and stay below
	// 2^31 so that every client reads them as a 32-bit integer.
	MaxRecordNumber = 1<<31 - 1
)

// Live bounds (the command line's --timeout).
const (
	// LiveTimeout is how long one live operation may take, browser launch,
	// navigation, waiting and capture together, when the caller names no
	// deadline.
	LiveTimeout = 30 * time.Second
	// MaxLiveTimeout is the longest deadline a live operation may be given.
	MaxLiveTimeout = 5 * time.Minute
)

// Acting bounds (docs/reference.md#acting).
const (
	// MaxTypeUnits is the longest text one type action may insert, in
	// UTF-16 code units.
	MaxTypeUnits = 4096
	// MaxActionDialogs is how many JavaScript dialogs one action answers
	// as it asked and reports; any further one it raises is dismissed
	// and counted, so a page asking again until refused is refused.
	MaxActionDialogs = 8
	// MaxUploads is how many files one tool-server session may upload.
	MaxUploads = 16
	// MaxDownloads is how many downloads one tool-server session saves.
	MaxDownloads = 16
	// MaxPages is how many pages one live session keeps open: its first
	// tab and the windows its pages opened to allowed URLs. A further
	// window is closed before it sends anything, and counted.
	MaxPages = 4
	// MaxFrames is how many frame documents (iframes' and frames') one
	// observation's page view reads; the rest are counted as omitted.
	MaxFrames = 16
	// MaxFrameDepth is how deep frames nest and are still read: a frame
	// document inside MaxFrameDepth frames is read, one deeper is counted
	// as omitted.
	MaxFrameDepth = 4
)

// Input bounds.
const (
	// MaxHTMLDepth is the deepest element nesting golang.org/x/net/html
	// accepts; deeper HTML is unsupported_input (docs/reference.md#corner-cases).
	MaxHTMLDepth = 512
	// QuoteBytes is the most input an error message may quote (docs/reference.md#errors).
	QuoteBytes = 64
	// MaxInputBytes is the most bytes one input may hold: a file, standard
	// input, and what a gzip stream expands to, each counted as the bytes
	// arrive. 256 MiB is far above any page the scan budgets can analyse
	// and low enough that a decompression bomb cannot take the process's
	// memory.
	MaxInputBytes = 256 << 20
	// MaxTreeNodes is the most nodes one tree may hold, from HTML or from a
	// capture alike.
	MaxTreeNodes = 2_000_000
	// MaxRequestBytes is the largest extract request file. A request is a
	// few hundred bytes; 64 KiB leaves room for any valid one.
	MaxRequestBytes = 64 << 10
)

// Many-inputs bounds (docs/reference.md#many-inputs).
const (
	// MaxJobs is the most inputs the command line analyses at once. Each
	// input in flight may hold up to MaxInputBytes, so the bound on jobs is
	// the bound on memory; past a few dozen, more jobs only queue for the
	// same cores.
	MaxJobs = 64
	// MaxListLine is the longest line of an --inputs list, in bytes: the
	// longest path Linux accepts (PATH_MAX), so a list of real paths always
	// fits and a list that is not one is refused before it fills memory.
	MaxListLine = 4096
)
