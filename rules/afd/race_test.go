//go:build race

package afd

// raceBuild is true under the race detector, whose sync.Pool drops a share of what is put back, so
// allocation counts of code that borrows from a pool are not what they are in a normal build.
const raceBuild = true
