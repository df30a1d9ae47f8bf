import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from './host/create-host';
import { installProcessGuard } from './host/process-guard';
import { resolveDataDir } from './host/data-dir';
import { DataFolderInUseError } from './store/folder-lock';
import { resolveApiToken } from './server/api-token';
import { startHttpServer } from './server/http-server';
import { redactErrorMessage } from './vault/redactor';

/** `npm run serve` (after serve.ts checked the runtime): the headless host on 127.0.0.1, for scripts, automation and a browser. */
async function main(): Promise<void> {
  // A host that holds a person's mail and tokens for months must not die of one stray exception.
  installProcessGuard();
  const env = process.env;
  const dataDir = resolveDataDir(env);
  const port = parsePort(env.DEPUTY_PORT);
  const rendererDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer');
  const logError = (message: string, error: unknown): void => {
    console.error(`[deputy] ${message}: ${redactErrorMessage(error)}`);
  };

  const host = await createHost({
    dataDir,
    env,
    logError,
    // Headless there is no browser to open: the sign-in page is printed here and returned by the API.
    openExternal: (url) => console.log(`To finish connecting, open this page in your browser: ${url}`),
  });
  const { token, isNew } = resolveApiToken(env, host.vault, dataDir);
  const server = await startHttpServer({ host, token, port, rendererDir, logError });

  console.log(`Deputy headless host listening on ${server.url}`);
  console.log(`Data folder: ${dataDir}`);
  if (!existsSync(join(rendererDir, 'index.html')))
    console.log('The renderer is not built: run "npm run build:renderer".');
  const isGeminiConfigured = (await host.invoke('settings.get', {})).isGeminiConfigured;
  console.log(
    isGeminiConfigured
      ? 'Gemini: a key is configured.'
      : 'Gemini: no key yet. Paste one in Settings → Connections (or start with GEMINI_API_KEY set).',
  );
  if (isNew || process.argv.includes('--show-token')) {
    console.log(`API token (kept encrypted in the data folder's vault): ${token}`);
    console.log(`Open ${server.url}/#token=${token}`);
  } else {
    console.log(
      `Open ${server.url}/ and paste your API token (printed at first start; \`npm run serve -- --show-token\` prints it again).`,
    );
  }

  let isStopping = false;
  const stop = async (): Promise<void> => {
    if (isStopping) return;
    isStopping = true;
    // The process guard keeps a failed close from crashing us, so the exit must not depend on it succeeding.
    let code = 0;
    try {
      await server.close();
      await host.close();
    } catch (error) {
      code = 1;
      logError('could not close cleanly', error);
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 4747;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DEPUTY_PORT must be a port number (0-65535), not "${value}".`);
  }
  return port;
}

main().catch((error: unknown) => {
  console.error(`[deputy] could not start: ${redactErrorMessage(error)}`);
  if (error instanceof DataFolderInUseError)
    console.error('[deputy] To run a second one beside it, give it its own folder with DEPUTY_DATA_DIR.');
  process.exit(1);
});
