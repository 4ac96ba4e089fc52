// Package dossier makes the FIDE dossier (make fide-dossier): one document
// that a federation could send with its sample clocks, with a row for
// every rule of FIDE's standards for electronic clocks: how zeitnot meets
// it, the tests that prove it with the command that runs them, and the
// figure measured on the build the document was made from.
//
// The rows are Rules (rules.go), the one table of these facts. Run runs
// their tests with go test -json and reads each test's result, its
// subtests, the figure lines it logs ("figure KEY: TEXT") and the
// benchmarks' results; Markdown and HTML write the document. Index finds
// every test and benchmark of the module in its _test.go files: the
// package's tests use it to fail when a row names a test, a benchmark or a
// figure line that does not exist, so that a rule cannot lose its proof
// unnoticed.
//
// Rules a test cannot prove on a computer (the 3 m, the 10 m, the 40 dB,
// the battery's 10 hours) are hardware rules: their rows point to the
// builders' guide, which says what meets them and how to measure it, and
// their figures are what the code can work out (the digits' size on the
// drawn frames, the battery from each build's draw).
package dossier
