// Writes the app's icons and the guides' placeholder slides into public/:
//   public/icons/icon.svg, icon-192.png, icon-512.png, maskable-512.png, apple-touch-icon.png
//   public/guides/<guide>/<n>.svg  ("slide N of M" until the guides are illustrated)
// PNGs are rendered by Debian's Chromium (playwright-core), the only rasterizer installed.
// Run: npx tsx scripts/shell-assets.ts
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { GUIDES, type GuideId } from '../src/domain/guides';

const root = path.resolve(import.meta.dirname, '../public');
const INDIGO = '#4f46e5';

/** The mark: a clipboard with three answered lines, in white on indigo. `safe` shrinks it into the maskable safe zone. */
function iconSvg(size: number, { rounded, safe }: { rounded: boolean; safe: boolean }): string {
  const scale = safe ? 0.62 : 0.8;
  const inner = size * scale;
  const offset = (size - inner) / 2;
  const s = inner / 100;
  const radius = rounded ? size * 0.2 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" rx="${radius}" fill="${INDIGO}"/>
  <g transform="translate(${offset} ${offset}) scale(${s})" fill="none" stroke="#fff" stroke-linecap="round" stroke-linejoin="round">
    <rect x="18" y="14" width="64" height="78" rx="8" stroke-width="7"/>
    <rect x="36" y="6" width="28" height="16" rx="5" fill="${INDIGO}" stroke-width="7"/>
    <path d="M30 42l5 5 9-10M52 43h18M30 64l5 5 9-10M52 65h18" stroke-width="6"/>
  </g>
</svg>
`;
}

function slideSvg(guide: GuideId, n: number, total: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">
  <rect width="1280" height="720" fill="#eef2ff"/>
  <rect x="40" y="40" width="1200" height="640" rx="24" fill="#fff" stroke="#c7d2fe" stroke-width="4" stroke-dasharray="16 12"/>
  <text x="640" y="330" text-anchor="middle" font-family="system-ui, sans-serif" font-size="72" font-weight="600" fill="${INDIGO}">slide ${n} of ${total}</text>
  <text x="640" y="410" text-anchor="middle" font-family="system-ui, sans-serif" font-size="32" fill="#64748b">${guide}</text>
</svg>
`;
}

async function main() {
  fs.mkdirSync(path.join(root, 'icons'), { recursive: true });
  fs.writeFileSync(path.join(root, 'icons/icon.svg'), iconSvg(64, { rounded: true, safe: false }));

  for (const [id, { slides }] of Object.entries(GUIDES) as [GuideId, { slides: number }][]) {
    const dir = path.join(root, 'guides', id);
    fs.mkdirSync(dir, { recursive: true });
    for (let n = 1; n <= slides; n++) fs.writeFileSync(path.join(dir, `${n}.svg`), slideSvg(id, n, slides));
  }

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox'],
  });
  const page = await browser.newPage();
  const pngs: [string, number, { rounded: boolean; safe: boolean }][] = [
    ['icon-192.png', 192, { rounded: true, safe: false }],
    ['icon-512.png', 512, { rounded: true, safe: false }],
    ['maskable-512.png', 512, { rounded: false, safe: true }],
    ['apple-touch-icon.png', 180, { rounded: false, safe: false }],
  ];
  for (const [name, size, opts] of pngs) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${iconSvg(size, opts)}</body></html>`,
    );
    await page.locator('svg').screenshot({ path: path.join(root, 'icons', name), omitBackground: true });
  }
  await browser.close();
  console.log('wrote icons and guide slides under', root);
}

void main();
