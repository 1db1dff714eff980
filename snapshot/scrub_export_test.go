package snapshot

// PlantCanaries lets the external tests plant canaries in captures.
var PlantCanaries = plantCanaries
