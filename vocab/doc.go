// Package vocab holds the closed sets of domsnap's contract: the words a
// request spells and a result prints (collection kinds and sources, field
// types, cell statuses and truncations, why a collection was not found, and
// whether a row's columns can be trusted).
//
// It is a leaf: it imports nothing of the module, so the analysis packages
// and the public root package share one definition of each word, and a value
// passes between them without conversion. Programs normally use the root
// package's names (domsnap.Kind, domsnap.Table, ...), which are aliases of
// these; the methods and the full list of members are documented here.
//
// Each set is a small named integer type with a String method giving the
// name the contract spells, and MarshalText/UnmarshalText that write and
// read exactly those names. The zero value of [Kind], [Truncation] and
// [Reason] means "none" and has no name of its own.
package vocab
