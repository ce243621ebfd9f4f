//go:build !race

package afd

// raceBuild: see race_test.go.
const raceBuild = false
