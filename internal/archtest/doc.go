// Package archtest holds tests over the source of the whole module, for rules no single
// package can check of itself: that no package parses back a display string another made
// (display_test.go), that docs/architecture.md's package table names every package
// (packages_test.go), and that the rootline binary links no package that brings in every API
// group of Kubernetes (binary_test.go).
package archtest
