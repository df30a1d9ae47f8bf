import { listWords } from '../../shared/list-words';
import type { AgentLoadError } from './load';
import { quoted } from '../../shared/quote-words';

/** A definition file that loaded, before its agent's name is checked against the other files'. */
export interface NamedFile {
  name: string;
  source: 'builtin' | 'user';
  /** As shown to the person: `built-in/x.yaml`, `agents/x.yaml`. */
  file: string;
  /** The line of its `name:` field, where a file not used for its name is pointed to; null when unknown. */
  nameLine: number | null;
}

export interface SameNameOutcome<T extends NamedFile> {
  /** The file used for each name. */
  used: Map<string, T>;
  /** Per used built-in agent whose name a file of the person's also gives: a sentence naming that file. */
  notes: Map<string, string>;
  /** Each file not used because of its name, with a sentence naming the other file. */
  errors: AgentLoadError[];
}

/**
 * Which file an agent name belongs to when several files give the same one. A built-in's name is taken: the
 * built-in is used, and a file of the person's with its name is not (import refuses such a file too). Two files
 * of the person's with one name are both left unused: neither is more theirs than the other, and which sorts
 * first or was saved last is no sign of which they mean, while running the other one would use instructions and
 * tools they did not choose. Each file is listed, naming the other, until one is renamed or removed.
 */
export function settleSameNames<T extends NamedFile>(files: readonly T[]): SameNameOutcome<T> {
  const byName = new Map<string, T[]>();
  for (const file of files) byName.set(file.name, [...(byName.get(file.name) ?? []), file]);
  const outcome: SameNameOutcome<T> = { used: new Map(), notes: new Map(), errors: [] };
  for (const [name, claims] of byName) {
    const builtins = claims.filter((claim) => claim.source === 'builtin');
    const [only] = claims;
    if (only && claims.length === 1) {
      outcome.used.set(name, only);
      continue;
    }
    const [builtin] = builtins;
    if (builtin && builtins.length === 1) {
      const others = claims.filter((claim) => claim !== builtin);
      outcome.used.set(name, builtin);
      outcome.notes.set(
        name,
        `${listWords(others.map((other) => other.file))} also ${others.length === 1 ? 'names' : 'name'} an agent ${quoted(name)}; ` +
          `${others.length === 1 ? 'that file is' : 'those files are'} not used, since the name is this built-in agent's.`,
      );
      for (const other of others)
        outcome.errors.push({
          file: other.file,
          line: other.nameLine,
          message: `The name ${quoted(name)} is already used by the built-in agent in ${builtin.file}, so this file is not used: give its agent another name.`,
        });
      continue;
    }
    for (const claim of claims) {
      const others = claims.filter((other) => other !== claim).map((other) => other.file);
      const message =
        others.length === 1
          ? `${others[0]} also names an agent ${quoted(name)}, so neither file is used: give one of them another name, or remove one.`
          : `${listWords(others)} also name an agent ${quoted(name)}, so none of these ${claims.length} files is used: keep the name in one of them, and give the others other names or remove them.`;
      outcome.errors.push({ file: claim.file, line: claim.nameLine, message });
    }
  }
  return outcome;
}
