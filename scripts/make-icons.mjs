#!/usr/bin/env node
// Draws the PWA icons (192, 512 and a maskable 512) by screenshotting an SVG in headless
// Chromium, so the PNGs are reproducible from public/favicon.svg's design without an image tool.
// Run: node scripts/make-icons.mjs (needs Chromium; CHROMIUM_PATH overrides /usr/bin/chromium).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'public', 'icons');

/** The glyph on a full-bleed gradient; `inset` shrinks it into the maskable safe zone. */
function svg(size, { rounded, inset }) {
	const r = rounded ? size * 0.22 : 0;
	const s = size * (1 - 2 * inset);
	const o = size * inset;
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
	<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
		<stop offset="0" stop-color="#6366f1"/><stop offset="1" stop-color="#8b5cf6"/>
	</linearGradient></defs>
	<rect width="${size}" height="${size}" rx="${r}" fill="url(#g)"/>
	<g transform="translate(${o} ${o}) scale(${s / 64})">
		<g stroke="#fff" stroke-width="3" stroke-linecap="round" opacity="0.85" fill="none">
			<path d="M20 22 L36 18 L46 34 L30 44 L20 22 M36 18 L30 44"/>
		</g>
		<g fill="#fff">
			<circle cx="20" cy="22" r="5.5"/><circle cx="36" cy="18" r="4.5"/>
			<circle cx="46" cy="34" r="6"/><circle cx="30" cy="44" r="5"/>
		</g>
	</g>
</svg>`;
}

const icons = [
	{ file: 'icon-192.png', size: 192, rounded: true, inset: 0.04 },
	{ file: 'icon-512.png', size: 512, rounded: true, inset: 0.04 },
	// Maskable icons are cropped to a circle of radius 40%: keep the glyph inside it.
	{ file: 'icon-maskable-512.png', size: 512, rounded: false, inset: 0.16 },
	{ file: 'apple-touch-icon.png', size: 180, rounded: false, inset: 0.08 },
];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
	executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
	args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
for (const icon of icons) {
	const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
	await page.setContent(`<html><body style="margin:0;background:transparent">${svg(icon.size, icon)}</body></html>`);
	await page.locator('svg').screenshot({ path: join(out, icon.file), omitBackground: true });
	await page.close();
	console.log(`wrote public/icons/${icon.file}`);
}
await browser.close();
