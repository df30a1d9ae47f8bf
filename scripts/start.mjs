// `npm start`: the Electron app. Where Electron's binary is missing (a CI box, a machine whose install
// skipped the download), say so in one sentence and point to the headless host instead of a stack trace.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

// Read the package's own record of its binary instead of requiring it: requiring `electron` from Node tries
// a download on the spot, which fails noisily on a machine without network.
function electronBinary() {
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

if (!electronBinary()) {
  console.error(
    "Electron's binary is not installed, so the desktop app cannot start here: run `npm run serve` for the headless host in your browser, or `npx install-electron --no` where there is network.",
  );
  process.exit(1);
}
const child = spawn('npx', ['electron-vite', 'preview', ...process.argv.slice(2)], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
