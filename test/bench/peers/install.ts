import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The peers, installed into a scratch folder: they are what the bench compares against, not app dependencies. */
export const PEER_PACKAGES = [
  '@langchain/langgraph',
  '@langchain/langgraph-checkpoint-sqlite',
  '@langchain/core',
  '@openai/agents-core',
  'zod',
] as const;

/**
 * Installs the peers into `dir` unless they are there already (pass `--fresh` to take the newest again). Their
 * SQLite binding is the app's own version, built for this Node: one native SQLite module per process.
 */
export function installPeers(dir: string, isFresh: boolean): void {
  mkdirSync(dir, { recursive: true });
  const isInstalled = PEER_PACKAGES.every((name) =>
    existsSync(join(dir, 'node_modules', name, 'package.json')),
  );
  if (isInstalled && !isFresh) return;
  const sqlite = versionOf(process.cwd(), 'better-sqlite3');
  const manifest = {
    name: 'deputy-bench-peers',
    private: true,
    type: 'module',
    overrides: { 'better-sqlite3': sqlite },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  console.log(`Installing ${PEER_PACKAGES.join(', ')} into ${dir} …`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = (args: string[]): void => {
    execFileSync(npm, args, { cwd: dir, stdio: 'inherit' });
  };
  run(['install', '--no-audit', '--no-fund', ...PEER_PACKAGES.map((name) => `${name}@latest`)]);
  // npm may leave install scripts unrun; the binding is built here, as the app's own is.
  run(['rebuild', 'better-sqlite3']);
}

/** The installed version of a peer package. */
export function versionOf(dir: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/** Imports a peer module (or a subpath of it) from the scratch folder. */
export async function importPeer(dir: string, specifier: string): Promise<Record<string, unknown>> {
  const require = createRequire(join(dir, 'package.json'));
  const resolved = require.resolve(specifier);
  return (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
}
