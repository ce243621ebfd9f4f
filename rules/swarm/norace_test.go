//go:build !race

package swarm

// raceBuild: see race_test.go.
const raceBuild = false
