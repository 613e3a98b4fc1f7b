// Package archtest holds tests over the source of the whole module, for rules no single
// package can check of itself: that no package parses back a display string another made
// (display_test.go).
package archtest
