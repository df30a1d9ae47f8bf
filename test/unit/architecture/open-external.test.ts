import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('opening the browser', () => {
  // Every URL that leaves the app is checked in one function (electron/shell/external.ts); a second
  // caller of shell.openExternal would be a door around that check.
  it('only electron/shell/external.ts calls shell.openExternal', () => {
    const callers = readdirSync(join(ROOT, 'electron'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .filter((name) =>
        /\bshell\s*\.\s*openExternal\s*\(/.test(readFileSync(join(ROOT, 'electron', name), 'utf8')),
      )
      .map((name) =>
        relative(ROOT, join(ROOT, 'electron', name))
          .split(sep)
          .join('/'),
      );
    expect(callers).toEqual(['electron/shell/external.ts']);
  });
});
