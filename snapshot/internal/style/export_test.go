package style

// KnownProperties exposes the generated property table to the browser test.
func KnownProperties() []string { return knownProperties[:] }
