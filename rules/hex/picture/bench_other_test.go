//go:build !unix

package picture

// processorTime is not measured where the platform does not tell it.
func processorTime() (int64, bool) { return 0, false }
