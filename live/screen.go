package live

import (
	"context"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
)

// The reference screen both offline and live analysis see (docs/reference.md,
// "Reference screen"): a 1280×800 CSS-pixel viewport on a 1280×800 screen,
// one device pixel per CSS pixel, a desktop (not mobile) page, the screen
// media type, and the user preferences a default profile has.
const (
	ScreenWidth  = 1280
	ScreenHeight = 800
	// ScreenDPR is the device pixel ratio: 1 device pixel per CSS pixel.
	ScreenDPR = 1
	// ScreenMedia is the emulated media type.
	ScreenMedia = "screen"
)

// ScreenFeatures are the media features Emulation.setEmulatedMedia can pin,
// with the reference screen's value for each. Chromium 156 takes any name
// without complaint but honours only some: of the reference screen's
// features, these are the ones its override changes (tried one by one). The
// rest (pointer, hover and their any- forms, color, dynamic-range, update,
// scripting, display-mode) cannot be set over the protocol and already have
// the reference screen's value in headless Chromium; the browser tests read
// every one of them back, so a browser that changes them is caught.
var ScreenFeatures = []emulation.MediaFeature{
	{Name: "prefers-color-scheme", Value: "light"},
	{Name: "prefers-reduced-motion", Value: "no-preference"},
	{Name: "prefers-reduced-transparency", Value: "no-preference"},
	{Name: "prefers-contrast", Value: "no-preference"},
	{Name: "forced-colors", Value: "none"},
	{Name: "color-gamut", Value: "srgb"},
}

// pinReferenceScreen sets the reference screen on a tab. It must run before
// the tab loads anything: a page may read the screen while it is parsed
// (media queries, matchMedia), and the override holds for every later
// navigation of the tab, since it belongs to the tab's DevTools connection.
func pinReferenceScreen(ctx context.Context, c *cdp.Client) error {
	metrics := emulation.NewSetDeviceMetricsOverrideArgs(ScreenWidth, ScreenHeight, ScreenDPR, false).
		SetScreenWidth(ScreenWidth).SetScreenHeight(ScreenHeight).
		SetScreenOrientation(emulation.ScreenOrientation{Type: "landscapePrimary", Angle: 0})
	if err := c.Emulation.SetDeviceMetricsOverride(ctx, metrics); err != nil {
		return callError(ctx, "Emulation.setDeviceMetricsOverride", err)
	}
	media := emulation.NewSetEmulatedMediaArgs().SetMedia(ScreenMedia).SetFeatures(ScreenFeatures)
	if err := c.Emulation.SetEmulatedMedia(ctx, media); err != nil {
		return callError(ctx, "Emulation.setEmulatedMedia", err)
	}
	return nil
}
