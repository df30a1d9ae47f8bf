import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const RENDERER = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'out', 'renderer');

const gzipBytes = (file: string) => gzipSync(readFileSync(join(RENDERER, file)), { level: 9 }).length;

/**
 * The renderer build's JavaScript, gzipped: what index.html loads before the first frame (its script and
 * the modules it preloads), and every chunk fetched later.
 */
export function bundleSizes(): {
  initial: number;
  initialFiles: string[];
  lazy: { file: string; bytes: number }[];
} {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  const initialFiles = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map(
    (match) => match[1] ?? '',
  );
  const all = readdirSync(join(RENDERER, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `assets/${file}`);
  return {
    initial: initialFiles.reduce((sum, file) => sum + gzipBytes(file), 0),
    initialFiles,
    lazy: all
      .filter((file) => !initialFiles.includes(file))
      .map((file) => ({ file, bytes: gzipBytes(file) }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printBundleSizes(): void {
  const sizes = bundleSizes();
  console.log(
    `renderer: initial JS ${kb(sizes.initial)} gzip (${sizes.initialFiles.join(', ')}; target ≤ 120 KB); ` +
      `loaded later: ${sizes.lazy.map((chunk) => `${chunk.file.replace(/^assets\/|-[\w-]+\.js$/g, '')} ${kb(chunk.bytes)}`).join(', ')}`,
  );
}
