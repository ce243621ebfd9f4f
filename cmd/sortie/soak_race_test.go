//go:build race

package main

// raceBuild is true when the tests run under the race detector; the soak test then sends fewer mails.
const raceBuild = true
