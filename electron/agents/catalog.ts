import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { basename, extname, join } from 'node:path';
import { stringify } from 'yaml';
import type { AgentSummary } from '../../shared/contract';
import { listWords } from '../../shared/list-words';
import { shownName, type AgentDefinition } from './definition';
import { importGeminiCliAgent } from './gemini-cli-import';
import { mistakesOf, parseAgentDefinition, type AgentLoadError, type AgentParseFailure } from './load';
import { compileOutput } from './output-contract';
import { settleSameNames, type NamedFile } from './same-name';
import { ChangeListeners } from '../../shared/change-listeners';
import { quoted } from '../../shared/quote-words';

export interface LoadedAgent {
  definition: AgentDefinition;
  source: 'builtin' | 'user';
  /** Where it came from, without the install or data folder's own path: `built-in/x.yaml`, `agents/x.yaml`. */
  file: string;
  /** A built-in's: the person's files that give its name too, in a sentence (they are not used). */
  sameName?: string;
}

/** How a file is named to the person and over the API: local paths are not shown (they are internals). */
const LABEL = { builtin: 'built-in', user: 'agents' } as const;

export interface AgentCatalogOptions {
  /** The definitions Deputy ships (resources/agents). */
  builtinDir: string;
  /** The person's own (the data folder's agents/), watched for changes. */
  userDir: string;
  /** The names of agents the person turned off, and where that list is kept. */
  disabled: { read: () => string[]; write: (names: string[]) => void };
  /** Told after every reload, with what loaded. */
  onChange?: () => void;
}

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
/** Saves made in quick succession (an editor writes, renames, touches) are read once. */
const RELOAD_DELAY_MS = 150;

/**
 * Every agent definition Deputy knows: the built-ins, then the person's own. A file that does not parse or fit
 * the schema is skipped and listed with its file and line; files that give the same name are settled by
 * `settleSameNames` and those not used are listed the same way. Nothing here ever throws at the app: a folder
 * that cannot be read is one more error in the list.
 */
export class AgentCatalog {
  private agents = new Map<string, LoadedAgent>();
  private errors: AgentLoadError[] = [];
  /** Every file that loaded, by the agent name it gives (used or not). */
  private claims = new Map<string, string[]>();
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new ChangeListeners();

  constructor(private readonly options: AgentCatalogOptions) {
    this.reload();
  }

  get folder(): string {
    return this.options.userDir;
  }

  reload(): void {
    const found: (LoadedAgent & NamedFile)[] = [];
    const errors: AgentLoadError[] = [];
    for (const source of ['builtin', 'user'] as const) {
      const dir = source === 'builtin' ? this.options.builtinDir : this.options.userDir;
      for (const file of definitionFiles(dir, LABEL[source], errors)) {
        const shown = `${LABEL[source]}/${file}`;
        const loaded = loadFile(join(dir, file), shown, errors);
        if (loaded) found.push({ name: loaded.definition.name, ...loaded, source, file: shown });
      }
    }
    const names = settleSameNames(found);
    this.agents = new Map(
      [...names.used].map(([name, { definition, source, file }]) => {
        const sameName = names.notes.get(name);
        return [name, { definition, source, file, ...(sameName && { sameName }) }];
      }),
    );
    this.claims = new Map();
    for (const { name, file } of found) this.claims.set(name, [...(this.claims.get(name) ?? []), file]);
    this.errors = [...errors, ...names.errors];
    this.changed();
  }

  /**
   * Told after `onChange` (so the tools are current) at every reload and on/off, and when the tools Deputy has
   * change (`toolsChanged`); returns the unsubscribe.
   */
  subscribe(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  /**
   * An extension connected, listed other tools or was turned off: an agent's unknown tools (see `summary`) may be
   * other ones now, so whoever shows them reads them again. The agents themselves are as they were.
   */
  toolsChanged(): void {
    this.listeners.notify();
  }

  private changed(): void {
    this.options.onChange?.();
    this.listeners.notify();
  }

  /** Watches the person's folder; a change reloads everything (files are small and few). */
  watch(): void {
    if (this.watcher) return;
    try {
      mkdirSync(this.options.userDir, { recursive: true });
      this.watcher = watch(this.options.userDir, () => this.scheduleReload());
      this.watcher.on('error', () => this.unwatch());
    } catch {
      // A folder that cannot be watched is read at start and on import; nothing else depends on watching.
    }
  }

  unwatch(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  get(name: string): LoadedAgent | null {
    return this.agents.get(name) ?? null;
  }

  /** An agent that exists and is turned on. */
  usable(name: string): LoadedAgent | null {
    return this.isEnabled(name) ? this.get(name) : null;
  }

  all(): LoadedAgent[] {
    return [...this.agents.values()];
  }

  /** The agents turned on: those a run may be given as tools. */
  enabled(): LoadedAgent[] {
    return this.all().filter((agent) => this.isEnabled(agent.definition.name));
  }

  loadErrors(): AgentLoadError[] {
    return [...this.errors];
  }

  isEnabled(name: string): boolean {
    return !this.options.disabled.read().includes(name);
  }

  setEnabled(name: string, enabled: boolean): void {
    const others = this.options.disabled.read().filter((other) => other !== name);
    this.options.disabled.write(enabled ? others : [...others, name]);
    this.changed();
  }

  /** `knownTools`: every tool name Deputy has now (agents count: turning one off does not make it unknown). */
  summary(agent: LoadedAgent, knownTools: ReadonlySet<string>): AgentSummary {
    const { definition } = agent;
    return {
      name: definition.name,
      displayName: shownName(definition),
      description: definition.description,
      source: agent.source,
      file: agent.file,
      enabled: this.isEnabled(definition.name),
      inputs: Object.entries(definition.inputConfig.inputs).map(([name, input]) => ({ name, ...input })),
      outputName: definition.outputConfig.outputName,
      tools: definition.toolConfig.tools,
      unknownTools: definition.toolConfig.tools.filter(
        (tool) => !knownTools.has(tool) && !this.agents.has(tool),
      ),
      phases: (definition.sop?.phases ?? []).map(({ name, allowedTools }) => ({ name, allowedTools })),
      ...(agent.sameName && { sameName: agent.sameName }),
    };
  }

  /**
   * Saves an imported file into the person's folder: a Gemini CLI subagent (Markdown) converted to YAML, or a
   * definition as given. It is checked first; a file that would not load is refused with its error.
   */
  importFile(
    fileName: string,
    text: string,
    knownTools: ReadonlySet<string>,
  ): { ok: true; agent: LoadedAgent; droppedTools: string[] } | AgentParseFailure {
    const safeName = basename(fileName).replace(/[^A-Za-z0-9._-]/g, '_');
    const isMarkdown = extname(safeName).toLowerCase() === '.md';
    let definition: AgentDefinition;
    let droppedTools: string[] = [];
    // Where a taken name is pointed to: the line of its name: field (in a Gemini CLI file, its front matter's).
    let nameLine: number | null;
    let saved: { file: string; text: string };
    if (isMarkdown) {
      const imported = importGeminiCliAgent(text, safeName, knownTools);
      if (!imported.ok) return imported;
      ({ definition, droppedTools, nameLine } = imported);
      saved = { file: `${definition.name}.yaml`, text: stringify(definition, { lineWidth: 100 }) };
    } else {
      if (!EXTENSIONS.has(extname(safeName).toLowerCase()))
        return {
          ok: false,
          error: { file: safeName, line: null, message: 'Import a .md, .yaml, .yml or .json file.' },
        };
      const parsed = parseAgentDefinition(text, safeName);
      if (!parsed.ok) return parsed;
      ({ definition, nameLine } = parsed);
      saved = { file: safeName, text };
    }
    const target = `${LABEL.user}/${saved.file}`;
    const taken = (this.claims.get(definition.name) ?? []).filter((file) => file !== target);
    if (taken.length > 0)
      return {
        ok: false,
        error: {
          file: safeName,
          line: nameLine,
          message: `The name ${quoted(definition.name)} is already used by ${listWords(taken)}.`,
        },
      };
    const schemaError = outputSchemaError(definition);
    if (schemaError) return { ok: false, error: { file: safeName, line: null, message: schemaError } };
    mkdirSync(this.options.userDir, { recursive: true });
    writeFileSync(join(this.options.userDir, saved.file), saved.text, { mode: 0o600 });
    this.reload();
    const agent = this.agents.get(definition.name);
    if (!agent)
      return {
        ok: false,
        error: { file: safeName, line: null, message: 'The file was saved but did not load.' },
      };
    return { ok: true, agent, droppedTools };
  }

  private scheduleReload(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.reload();
    }, RELOAD_DELAY_MS);
    this.timer.unref();
  }
}

function definitionFiles(dir: string, label: string, errors: AgentLoadError[]): string[] {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir)
      .filter((file) => EXTENSIONS.has(extname(file).toLowerCase()))
      .sort();
  } catch (error) {
    errors.push({ file: label, line: null, message: `The folder could not be read (${codeOf(error)}).` });
    return [];
  }
}

function loadFile(
  path: string,
  shown: string,
  errors: AgentLoadError[],
): { definition: AgentDefinition; nameLine: number | null } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    errors.push({ file: shown, line: null, message: `The file could not be read (${codeOf(error)}).` });
    return null;
  }
  const parsed = parseAgentDefinition(text, shown);
  if (!parsed.ok) {
    errors.push(...mistakesOf(parsed));
    return null;
  }
  const schemaError = outputSchemaError(parsed.definition);
  if (schemaError) {
    errors.push({ file: shown, line: null, message: schemaError });
    return null;
  }
  return { definition: parsed.definition, nameLine: parsed.nameLine };
}

/** A file-system error by its code (EACCES, EISDIR…): its message would carry the path. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'unreadable';
}

function outputSchemaError(definition: AgentDefinition): string | null {
  try {
    compileOutput(definition);
    return null;
  } catch (error) {
    return `outputConfig.schema is not a JSON Schema Deputy can use: ${(error as Error).message}`;
  }
}
