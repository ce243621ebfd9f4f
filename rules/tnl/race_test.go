//go:build race

package tnl

// raceBuild is true under the race detector, which runs the differential test several times slower.
const raceBuild = true
