package domsnap

import (
	"sync"
)

// ArtifactStore keeps complete observations in memory, keyed by their
// artifact reference, each beside the projections made of it. A projection
// is computed once per budget and stored, so replaying an observation shows
// a model exactly the bytes it was shown the first time, whatever changes
// later.
//
// The zero value is an empty store ready to use. It is safe for concurrent
// use. It holds everything saved into it until Forget; bounding its size is
// the owner's business (a live session keeps the observations it published).
type ArtifactStore struct {
	mu      sync.Mutex
	entries map[string]*storedArtifact
}

type storedArtifact struct {
	observation []byte
	projections map[int][]byte
}

// Saved is what ArtifactStore.Save returns: the artifact reference, the full
// canonical observation and the projection at the budget asked for. The
// slices are the caller's own copies.
type Saved struct {
	Artifact    string
	Observation []byte
	Projection  []byte
}

// Save stores o under its artifact reference, with its projection at
// budget. When the store already holds that artifact and a projection at
// that budget, it returns the stored bytes without projecting again. A
// budget Project refuses is refused here too, and nothing is stored.
func (s *ArtifactStore) Save(o *Observation, budget int) (Saved, error) {
	if o == nil {
		// Project reports the misuse with its code.
		_, err := Project(o, budget)
		return Saved{}, err
	}
	canonical := o.Canonical()
	artifact := sha256Ref(canonical)

	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[artifact]
	if e != nil {
		if proj, ok := e.projections[budget]; ok {
			return Saved{Artifact: artifact, Observation: clone(e.observation), Projection: clone(proj)}, nil
		}
	}
	p, err := Project(o, budget)
	if err != nil {
		return Saved{}, err
	}
	if e == nil {
		e = &storedArtifact{observation: canonical, projections: map[int][]byte{}}
		if s.entries == nil {
			s.entries = map[string]*storedArtifact{}
		}
		s.entries[artifact] = e
	}
	proj := p.Canonical()
	e.projections[budget] = proj
	return Saved{Artifact: artifact, Observation: clone(e.observation), Projection: clone(proj)}, nil
}

// Observation returns the complete canonical observation stored under
// artifact.
func (s *ArtifactStore) Observation(artifact string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[artifact]
	if !ok {
		return nil, false
	}
	return clone(e.observation), true
}

// Projection returns the projection of the observation stored under
// artifact that was made at budget, byte for byte as it was first made.
func (s *ArtifactStore) Projection(artifact string, budget int) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[artifact]
	if !ok {
		return nil, false
	}
	p, ok := e.projections[budget]
	if !ok {
		return nil, false
	}
	return clone(p), true
}

// Forget drops the observation stored under artifact and its projections.
func (s *ArtifactStore) Forget(artifact string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, artifact)
}

// Len reports how many observations the store holds.
func (s *ArtifactStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }
