package media

// Screen is what a media query can ask about: the viewport, the device and
// the user's preferences. Lengths are in CSS pixels.
type Screen struct {
	// Type is the media type the screen is ("screen"); "all" always matches.
	Type string
	// Width and Height are the viewport's; DeviceWidth and DeviceHeight the
	// whole screen's.
	Width, Height             float64
	DeviceWidth, DeviceHeight float64
	// FontSize is the initial font size em and rem stand for in a query.
	FontSize float64
	// Resolution is the device pixel ratio, in dppx.
	Resolution float64
	// Numbers are the values of the numeric features other than the sizes
	// and the resolution: color, color-index, monochrome, grid, ...
	Numbers map[string]float64
	// Keywords are the values of the discrete features: orientation,
	// pointer, prefers-color-scheme, ... A feature whose value is "none" or
	// "no-preference" is false in a boolean context.
	Keywords map[string]string
}

// Reference returns the one screen both sides of a parity check see: a
// 1280×800 viewport on a 1280×800 screen at device pixel ratio 1, 8 bits per
// colour in sRGB and standard dynamic range, a light colour scheme and no
// other preference, no pointing device (as headless Chromium reports), and
// scripting on, in an ordinary browser tab that updates fast and scrolls.
// Each call returns a fresh value that the caller may change.
func Reference() Screen {
	return Screen{
		Type:         "screen",
		Width:        1280,
		Height:       800,
		DeviceWidth:  1280,
		DeviceHeight: 800,
		FontSize:     16,
		Resolution:   1,
		Numbers: map[string]float64{
			"color":                        8,
			"color-index":                  0,
			"monochrome":                   0,
			"grid":                         0,
			"horizontal-viewport-segments": 1,
			"vertical-viewport-segments":   1,
			"-webkit-transform-3d":         1,
		},
		Keywords: map[string]string{
			"orientation":                  "landscape",
			"scan":                         "none",
			"update":                       "fast",
			"overflow-block":               "scroll",
			"overflow-inline":              "scroll",
			"color-gamut":                  "srgb",
			"dynamic-range":                "standard",
			"pointer":                      "none",
			"any-pointer":                  "none",
			"hover":                        "none",
			"any-hover":                    "none",
			"prefers-color-scheme":         "light",
			"prefers-reduced-motion":       "no-preference",
			"prefers-reduced-transparency": "no-preference",
			"prefers-contrast":             "no-preference",
			"forced-colors":                "none",
			"scripting":                    "enabled",
			"display-mode":                 "browser",
			"device-posture":               "continuous",
		},
	}
}

// valueType is the type of a feature's value.
type valueType uint8

const (
	typeLength valueType = iota
	typeRatio
	typeResolution
	typeInteger
	typeNumber
	typeKeyword
)

// feature says how a media feature is written.
type feature struct {
	typ valueType
	// ranged features take the min- and max- prefixes and the range form.
	ranged bool
	// values are the keywords a discrete feature accepts, in any case.
	values []string
	// boolOnly features have no plain form.
	boolOnly bool
}

// lookup returns the feature of a lower-case name, as Chromium 156 knows it.
// A name it does not know, such as inverted-colors or prefers-reduced-data,
// is not found. (Some of the values accepted are those Chromium accepts,
// where the specification lists more or fewer: color-gamut srgb, p3 and
// rec2020; display-mode without borderless.)
func lookup(name string) (feature, bool) {
	switch name {
	case "width", "height", "device-width", "device-height":
		return feature{typ: typeLength, ranged: true}, true
	case "aspect-ratio", "device-aspect-ratio":
		return feature{typ: typeRatio, ranged: true}, true
	case "resolution":
		return feature{typ: typeResolution, ranged: true}, true
	case "-webkit-device-pixel-ratio":
		return feature{typ: typeNumber, ranged: true}, true
	case "color", "color-index", "monochrome", "horizontal-viewport-segments", "vertical-viewport-segments":
		return feature{typ: typeInteger, ranged: true}, true
	case "grid":
		return feature{typ: typeNumber}, true
	case "-webkit-transform-3d":
		return feature{typ: typeNumber, boolOnly: true}, true
	case "orientation":
		return feature{typ: typeKeyword, values: []string{"portrait", "landscape"}}, true
	case "scan":
		return feature{typ: typeKeyword, values: []string{"interlace", "progressive"}}, true
	case "update":
		return feature{typ: typeKeyword, values: []string{"none", "slow", "fast"}}, true
	case "overflow-block":
		return feature{typ: typeKeyword, values: []string{"none", "scroll", "paged"}}, true
	case "overflow-inline":
		return feature{typ: typeKeyword, values: []string{"none", "scroll"}}, true
	case "color-gamut":
		return feature{typ: typeKeyword, values: []string{"srgb", "p3", "rec2020"}}, true
	case "dynamic-range":
		return feature{typ: typeKeyword, values: []string{"standard", "high"}}, true
	case "pointer", "any-pointer":
		return feature{typ: typeKeyword, values: []string{"none", "coarse", "fine"}}, true
	case "hover", "any-hover":
		return feature{typ: typeKeyword, values: []string{"none", "hover"}}, true
	case "prefers-color-scheme":
		return feature{typ: typeKeyword, values: []string{"light", "dark"}}, true
	case "prefers-reduced-motion", "prefers-reduced-transparency":
		return feature{typ: typeKeyword, values: []string{"no-preference", "reduce"}}, true
	case "prefers-contrast":
		return feature{typ: typeKeyword, values: []string{"no-preference", "more", "less", "custom"}}, true
	case "forced-colors":
		return feature{typ: typeKeyword, values: []string{"none", "active"}}, true
	case "scripting":
		return feature{typ: typeKeyword, values: []string{"none", "initial-only", "enabled"}}, true
	case "display-mode":
		return feature{typ: typeKeyword, values: []string{"browser", "minimal-ui", "standalone", "fullscreen",
			"picture-in-picture", "window-controls-overlay", "tabbed"}}, true
	case "device-posture":
		return feature{typ: typeKeyword, values: []string{"continuous", "folded"}}, true
	}
	return feature{}, false
}

// splitPrefix splits "min-width" into ("width", "min"); the device pixel
// ratio's prefix comes after its vendor prefix
// ("-webkit-min-device-pixel-ratio").
func splitPrefix(name string) (base, prefix string) {
	for _, p := range []string{"min-", "max-"} {
		if len(name) > len(p) && name[:len(p)] == p {
			return name[len(p):], p[:3]
		}
		const webkit = "-webkit-"
		if len(name) > len(webkit)+len(p) && name[:len(webkit)] == webkit && name[len(webkit):len(webkit)+len(p)] == p {
			return webkit + name[len(webkit)+len(p):], p[:3]
		}
	}
	return name, ""
}

// ratio returns the screen's value of a ratio feature as width and height.
func (s *Screen) ratio(name string) (w, h float64) {
	if name == "device-aspect-ratio" {
		return s.DeviceWidth, s.DeviceHeight
	}
	return s.Width, s.Height
}

// number returns the screen's value of a numeric feature.
func (s *Screen) number(name string) float64 {
	switch name {
	case "width":
		return s.Width
	case "height":
		return s.Height
	case "device-width":
		return s.DeviceWidth
	case "device-height":
		return s.DeviceHeight
	case "resolution", "-webkit-device-pixel-ratio":
		return s.Resolution
	}
	return s.Numbers[name]
}
