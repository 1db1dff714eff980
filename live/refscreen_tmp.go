package live

import (
	"context"

	"github.com/mafredri/cdp/protocol/emulation"
)

// pinReferenceScreen gives the tab the reference screen offline analysis
// evaluates media queries against: 1280×800 CSS pixels on a 1280×800
// screen, device pixel ratio 1, and the user preferences the protocol can set.
func (p *Page) pinReferenceScreen(ctx context.Context) error {
	m := emulation.NewSetDeviceMetricsOverrideArgs(1280, 800, 1, false).SetScreenWidth(1280).SetScreenHeight(800)
	if err := p.client.Emulation.SetDeviceMetricsOverride(ctx, m); err != nil {
		return callError(ctx, "Emulation.setDeviceMetricsOverride", err)
	}
	media := emulation.NewSetEmulatedMediaArgs().SetFeatures([]emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: "light"},
		{Name: "prefers-reduced-motion", Value: "no-preference"},
		{Name: "prefers-reduced-transparency", Value: "no-preference"},
		{Name: "prefers-contrast", Value: "no-preference"},
		{Name: "forced-colors", Value: "none"},
		{Name: "color-gamut", Value: "srgb"},
	})
	if err := p.client.Emulation.SetEmulatedMedia(ctx, media); err != nil {
		return callError(ctx, "Emulation.setEmulatedMedia", err)
	}
	return nil
}
