import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where Electron's binary is, or null when it was never downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD, no
 * network). Reads the package's own record of it instead of requiring `electron`, which from Node tries a
 * download on the spot and fails noisily on a machine without network. Used by `npm start` and by the
 * real-Electron run of the desktop suite.
 */
export function electronBinary() {
  try {
    const root = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(root, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const name = readFileSync(pathFile, 'utf8').trim();
    // Electron's own launcher honours this override of where its binary lives; so do we.
    const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(root, 'dist');
    const binary = join(dist, name);
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}
