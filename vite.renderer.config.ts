import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The browser build of the renderer, served by the headless host (`npm run serve`) from out/renderer. */
export default defineConfig({
  root: fromRoot('./renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: fromRoot('./out/renderer'),
    emptyOutDir: true,
    // The headless host serves this build to a browser: no source maps, so no source leaves the machine by it.
    sourcemap: false,
  },
});
