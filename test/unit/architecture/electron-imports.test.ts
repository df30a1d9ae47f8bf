import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN.md §1: only electron/shell/ and the entries electron/main.ts and electron/preload.ts import
 * `electron`. Everything else must run under the headless host and in tests, where there is no Electron.
 *
 * `import type` counts too: a core module that names Electron's types is coupled to Electron all the
 * same; it should declare the small interface it needs (as the vault's cipher does) and let the shell
 * pass Electron's object in.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SCANNED_FOLDERS = ['electron', 'shared', 'renderer'];

interface SourceFile {
  path: string;
  source: string;
}

interface Violation {
  path: string;
  line: number;
  specifier: string;
}

function isAllowedToImportElectron(path: string): boolean {
  return path.startsWith('electron/shell/') || path === 'electron/main.ts' || path === 'electron/preload.ts';
}

const isElectronSpecifier = (specifier: string): boolean =>
  specifier === 'electron' || specifier.startsWith('electron/');

/**
 * TypeScript's own pre-processor finds every module reference (static, `import type`, `export … from`,
 * dynamic `import()`, `require()`, `import x = require()`) and ignores comments and strings.
 */
function findElectronImports(files: readonly SourceFile[]): Violation[] {
  return files.flatMap(({ path, source }) => {
    if (isAllowedToImportElectron(path)) return [];
    return ts
      .preProcessFile(source, true, true)
      .importedFiles.filter((reference) => isElectronSpecifier(reference.fileName))
      .map((reference) => ({
        path,
        line: source.slice(0, reference.pos).split('\n').length,
        specifier: reference.fileName,
      }));
  });
}

function listSources(folder: string): SourceFile[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.split(sep).includes('node_modules'))
    .map((name) => {
      const absolute = join(ROOT, folder, name);
      return { path: relative(ROOT, absolute).split(sep).join('/'), source: readFileSync(absolute, 'utf8') };
    });
}

describe('who may import electron', () => {
  it('only electron/shell/, electron/main.ts and electron/preload.ts do', () => {
    const files = SCANNED_FOLDERS.flatMap(listSources);
    expect(files.some((file) => file.path.startsWith('shared/contract/'))).toBe(true);
    expect(files.some((file) => file.path === 'electron/shell/ipc.ts')).toBe(true);
    expect(findElectronImports(files)).toEqual([]);
  });

  describe('the scanner', () => {
    const offending = [
      `import { app } from 'electron';`,
      `import type { App } from 'electron';`,
      `import { ipcMain } from "electron/main";`,
      `import 'electron';`,
      `export { shell } from 'electron';`,
      `const electron = await import('electron');`,
      `const { app } = require('electron');`,
      `import electron = require('electron');`,
      `type Shell = typeof import('electron').shell;`,
    ];

    it.each(offending)('flags %s outside the shell', (line) => {
      const source = `// a file in the core\n${line}\n`;
      expect(findElectronImports([{ path: 'electron/engine/loop.ts', source }])).toEqual([
        { path: 'electron/engine/loop.ts', line: 2, specifier: expect.stringMatching(/^electron/) },
      ]);
    });

    it('flags the renderer and the contract as well', () => {
      const source = `import { ipcRenderer } from 'electron';`;
      const files = [
        { path: 'renderer/src/App.tsx', source },
        { path: 'shared/contract/run.ts', source },
      ];
      expect(findElectronImports(files).map((violation) => violation.path)).toEqual([
        'renderer/src/App.tsx',
        'shared/contract/run.ts',
      ]);
    });

    it('allows the shell and the two entries', () => {
      const source = `import { app } from 'electron';`;
      const files = ['electron/shell/windows.ts', 'electron/main.ts', 'electron/preload.ts'].map((path) => ({
        path,
        source,
      }));
      expect(findElectronImports(files)).toEqual([]);
    });

    it('ignores comments, strings and look-alike packages', () => {
      const source = [
        `// import { app } from 'electron';`,
        `/* require('electron') */`,
        `const hint = "import { app } from 'electron'";`,
        `import { build } from 'electron-builder';`,
        `import { defineConfig } from 'electron-vite';`,
      ].join('\n');
      expect(findElectronImports([{ path: 'electron/engine/loop.ts', source }])).toEqual([]);
    });
  });
});
