import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../test/e2e/support/browser';

/**
 * Makes every platform's icons from resources/icon.png (512 px) with Chromium, which this project already
 * needs for its tests: `tsx scripts/make-icons.ts`. Writes icon.ico (Windows), icon.icns (macOS) and the
 * tray icons: a black-and-alpha template for the macOS menu bar (the system tints it for light and dark),
 * and a dark and a light glyph for Windows and Linux trays, picked by the system's theme (electron/shell/tray.ts).
 */
const RESOURCES = join(import.meta.dirname, '..', 'resources');
const source = `data:image/png;base64,${readFileSync(join(RESOURCES, 'icon.png')).toString('base64')}`;

const browser = await launchBrowser();
const page = await browser.newPage();

/**
 * `template`: black and alpha, for the macOS menu bar (the system tints it). `light` and `dark`: the same glyph
 * in a dark grey for light taskbars and panels, and in white for dark ones (Windows and Linux, by nativeTheme).
 */
type Glyph = 'template' | 'light' | 'dark';
const GLYPH_RGB: Readonly<Record<Glyph, [number, number, number]>> = {
  template: [0, 0, 0],
  light: [31, 41, 55],
  dark: [255, 255, 255],
};

async function render(size: number, glyph?: Glyph): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<canvas id="c" width="${size}" height="${size}"></canvas>`);
  const dataUrl = await page.evaluate(
    async ({ source, size, rgb }) => {
      const image = new Image();
      image.src = source;
      await image.decode();
      const canvas = document.getElementById('c') as HTMLCanvasElement;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, size, size);
      if (rgb) {
        // One colour wherever the blue tile is, transparent where the white D is, so the glyph reads.
        const pixels = context.getImageData(0, 0, size, size);
        for (let i = 0; i < pixels.data.length; i += 4) {
          const whiteness = (pixels.data[i] ?? 0) / 255;
          const alpha = (pixels.data[i + 3] ?? 0) * (1 - whiteness);
          pixels.data.set([...rgb, Math.round(alpha)], i);
        }
        context.putImageData(pixels, 0, 0);
      }
      return canvas.toDataURL('image/png');
    },
    { source, size, rgb: glyph ? GLYPH_RGB[glyph] : null },
  );
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

/** The Windows taskbar overlay for pending approvals: a red dot with a white ring, readable on any taskbar. */
async function badge(size: number): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<canvas id="c" width="${size}" height="${size}"></canvas>`);
  const dataUrl = await page.evaluate((size) => {
    const canvas = document.getElementById('c') as HTMLCanvasElement;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.beginPath();
    context.arc(size / 2, size / 2, size / 2 - 1, 0, Math.PI * 2);
    context.fillStyle = '#ffffff';
    context.fill();
    context.beginPath();
    context.arc(size / 2, size / 2, size / 2 - size / 8 - 1, 0, Math.PI * 2);
    context.fillStyle = '#c42b1c';
    context.fill();
    return canvas.toDataURL('image/png');
  }, size);
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

/** An .ico whose entries are PNGs (Windows Vista and later read them). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(({ png }) => png)]);
}

/** An .icns whose entries are PNGs (ic07 128, ic08 256, ic09 512, ic10 1024 = 512@2x). */
function icns(images: { type: string; png: Buffer }[]): Buffer {
  const entries = images.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(entries);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

mkdirSync(join(RESOURCES, 'tray'), { recursive: true });
writeFileSync(join(RESOURCES, 'tray', 'trayTemplate.png'), await render(16, 'template'));
writeFileSync(join(RESOURCES, 'tray', 'trayTemplate@2x.png'), await render(32, 'template'));
for (const theme of ['light', 'dark'] as const) {
  writeFileSync(join(RESOURCES, 'tray', `tray-${theme}.png`), await render(16, theme));
  writeFileSync(join(RESOURCES, 'tray', `tray-${theme}@2x.png`), await render(32, theme));
}
writeFileSync(join(RESOURCES, 'tray', 'badge.png'), await badge(16));
writeFileSync(join(RESOURCES, 'tray', 'badge@2x.png'), await badge(32));
// One after another: they share one page.
const icoImages: { size: number; png: Buffer }[] = [];
for (const size of [16, 24, 32, 48, 64, 128, 256]) icoImages.push({ size, png: await render(size) });
writeFileSync(join(RESOURCES, 'icon.ico'), ico(icoImages));
writeFileSync(
  join(RESOURCES, 'icon.icns'),
  icns([
    { type: 'ic07', png: await render(128) },
    { type: 'ic08', png: await render(256) },
    { type: 'ic09', png: await render(512) },
    { type: 'ic10', png: await render(1024) },
  ]),
);
await browser.close();
console.log('Wrote resources/icon.ico, resources/icon.icns and resources/tray/.');
