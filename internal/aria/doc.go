// Package aria decides roles (docs/reference.md#finding-the-collection): an element's explicit
// WAI-ARIA role, its implicit HTML-AAM role, whether it is role-less, and
// whether it is a table, list or form collection.
//
// Role names are those of WAI-ARIA 1.2, lower-case. A role token outside
// that set (abstract roles such as "widget", later or other vocabularies
// such as "image", "mark", "doc-*" and "graphics-*") is an unknown token and
// is skipped. "none" and "presentation" are honoured exactly as written: no
// conflict resolution, and no fallback when a landmark such as "form" or
// "region" has no accessible name. Implicit roles use the same vocabulary,
// so an <img> is "img" and a <mark> has no role.
//
// # Limits
//
// [ExplicitRole] and [Collection] look at the element alone and cost time
// linear in its role attribute. [ImplicitRole] of a few context-dependent
// elements (header, footer, aside, td, th, tr and the row groups) walks
// ancestors through the tree's parent links, without recursion, and stops
// at the first ancestor that decides the answer, or after
// [limits.MaxHTMLDepth] ancestors: no parsed HTML is deeper, so the bound
// changes no offline answer, and it keeps a lookup on a deeper live capture
// from costing time in proportion to the depth. Every other element is
// decided by its own name and attributes. A role token is compared without
// allocating.
//
// # Security
//
// Roles are read from attribute names and token values only; no form
// control value is read (the tree holds none).
//
// # Concurrency
//
// Every function is pure over an immutable tree and safe for concurrent use.
package aria
