import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * `electron-vite build` writes out/main/main.js (ESM, as package.json says "type": "module"),
 * out/preload/preload.cjs and out/renderer/. `electron-vite dev` serves the renderer and sets
 * ELECTRON_RENDERER_URL for the main process.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Every `dependencies` entry stays in node_modules and is required at runtime. better-sqlite3 must:
      // it loads a native .node file next to its own sources, which a bundle would break.
      externalizeDeps: { include: ['better-sqlite3'] },
      rolldownOptions: {
        input: {
          main: resolve(import.meta.dirname, 'electron/main.ts'),
          // The context index's worker thread, started by index-worker-client.ts from beside main.js.
          'context-index-worker': resolve(import.meta.dirname, 'electron/context/index-worker.ts'),
          // deputy.db's checkpoints, off the main thread: started by wal-keeper-client.ts from beside main.js.
          'deputy-wal-keeper': resolve(import.meta.dirname, 'electron/store/wal-keeper.ts'),
        },
        external: ['better-sqlite3'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only a few Electron modules, and cannot load ESM: everything
      // it imports is bundled into one CommonJS file.
      externalizeDeps: false,
      rolldownOptions: {
        input: { preload: resolve(import.meta.dirname, 'electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified by default; the packaged app should not ship 1.2 MB of it.
      minify: true,
      rolldownOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
  },
});
