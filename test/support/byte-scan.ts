import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The forms a needle could take on disk: as is, hex, and base64/base64url at each of the three alignments. */
export function encodings(needle: string): { label: string; bytes: Buffer }[] {
  const raw = Buffer.from(needle, 'utf8');
  const forms = [
    { label: 'raw', bytes: raw },
    { label: 'hex', bytes: Buffer.from(raw.toString('hex'), 'latin1') },
  ];
  for (let shift = 0; shift < 3; shift += 1) {
    const base64 = Buffer.concat([Buffer.alloc(shift, 0x20), raw]).toString('base64');
    // Only the characters that depend on the needle alone, whatever surrounds it.
    const core = base64.slice(Math.ceil((shift * 4) / 3) + 2, -4);
    forms.push({ label: `base64+${shift}`, bytes: Buffer.from(core, 'latin1') });
    forms.push({
      label: `base64url+${shift}`,
      bytes: Buffer.from(core.replaceAll('+', '-').replaceAll('/', '_'), 'latin1'),
    });
  }
  return forms;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file of a data folder, byte for byte. */
export function readAll(dir: string): { name: string; content: Buffer }[] {
  return filesUnder(dir).map((path) => ({ name: path.slice(dir.length + 1), content: readFileSync(path) }));
}

export interface Scan {
  files: string[];
  bytes: number;
  hits: string[];
}

/** Where any needle appears, in any of its encodings. */
export function scanFor(needles: readonly string[], files: { name: string; content: Buffer }[]): Scan {
  const hits: string[] = [];
  let bytes = 0;
  for (const { name, content } of files) {
    bytes += content.length;
    for (const needle of needles) {
      for (const form of encodings(needle)) {
        if (content.includes(form.bytes)) hits.push(`${name}: ${form.label} of ${needle.slice(0, 12)}…`);
      }
    }
  }
  return { files: files.map((file) => file.name), bytes, hits };
}
