// Package conformance measures domsnap against test material written
// outside the project: the suites in ../shared/testsuites beside the
// module root (web-platform-tests accessible-name and role pages, and a
// JSON scalar suite whose verdicts were derived from docs/reference.md#types).
//
// The package has no code of its own. Its tests carry the build tag
// conformance, so `go test ./...` compiles only this file; `make
// conformance` runs them with
//
//	go test -tags conformance ./conformance/ -v -count=1
//
// and prints each suite's agreement count. The suites are read where they
// lie and never copied into the repository. A missing suite folder fails the
// run: a conformance run that measured nothing must not pass.
//
// Where domsnap deliberately differs from a suite, the difference is listed
// in the test's divergence table with its reason from the contract. A
// disagreement missing from the table fails the test, and so does a listed
// entry that has come to agree, so the table always says exactly where
// domsnap stands.
//
//   - roles_test.go: aria.Role for every role case of
//     wpt-accname/role-cases.jsonl (expected_role; ".ex-generic" targets
//     accept generic or none) and for every target of name-cases.jsonl
//     against the role Chromium 156 computed.
//   - names_test.go: the form label column (docs/reference.md#form-columns) for every
//     form-control target of wpt-accname/name-cases.jsonl against
//     expected_name, compared as WPT compares names.
//   - jsonscalars_test.go: typed.Convert for every literal of
//     json-scalars/cases.jsonl and each declared type: the verdict, and the
//     value compared as its JSON encoding.
package conformance
