//go:build !race

package tnl

// raceBuild: see race_test.go.
const raceBuild = false
