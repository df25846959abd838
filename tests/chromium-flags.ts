// Debian's Chromium as every browser test and the new-tab bench start it.
//
// Playwright turns a list of Chromium features off itself (its chromiumSwitches), but Chromium reads
// only the last --disable-features on its command line: ours repeats Playwright's list (as of
// playwright-core 1.5x) and adds the WebUI omnibox popup. Each page Playwright opens in headless
// Chromium is a window of its own, and Chromium 156 loads a window's omnibox popup
// (chrome://omnibox-popup.top-chrome, a renderer of ~200 JS modules) as the window opens: traced,
// 320 ms of CPU during a 580 ms page load on a 2-core machine, beside the page's own 210 ms. A
// user's new tab opens in a window that has its popup already (docs/benchmarks.md, "Editor reopen
// in a new tab").

export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  `--disable-features=${[
    ...PLAYWRIGHT_DISABLED_FEATURES,
    'WebUIOmniboxPopup',
    'WebUIOmniboxAimPopup',
    'WebUIOmniboxFullPopup',
  ].join(',')}`,
];
