// `npm start`: the Electron app. Where Electron's binary is missing (a CI box, a machine whose install
// skipped the download), say so in one sentence and point to the headless host instead of a stack trace.
import { spawn } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

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
