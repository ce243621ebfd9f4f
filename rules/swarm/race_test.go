//go:build race

package swarm

// raceBuild is true under the race detector, which runs the differential test several times slower.
const raceBuild = true
