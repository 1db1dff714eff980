package media

import "testing"

// BenchmarkMatch evaluates typical query lists against the reference screen.
func BenchmarkMatch(b *testing.B) {
	for _, q := range []string{
		"screen",
		"only screen and (min-width: 768px) and (max-width: 1279.98px)",
		"(400px <= width < 900px), print and (orientation: portrait)",
		"(min-width: calc(40em + 2vw)) and (prefers-reduced-motion: no-preference)",
	} {
		b.Run(q, func(b *testing.B) {
			s := Reference()
			for b.Loop() {
				Match(q, s)
			}
		})
	}
}
