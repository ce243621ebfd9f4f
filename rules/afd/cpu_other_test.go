//go:build !unix

package afd

import "time"

// processCPU is not measured here: benchmarks report 0 processor time.
func processCPU() time.Duration { return 0 }
