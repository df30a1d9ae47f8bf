// A headless server with the process guard, for the process-guard test: once listening, it throws from a
// timer and rejects a promise nobody awaits, both outside any request, then keeps serving.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../electron/host/create-host';
import { installProcessGuard } from '../../electron/host/process-guard';
import { startHttpServer } from '../../electron/server/http-server';

installProcessGuard();
const dataDir = mkdtempSync(join(tmpdir(), 'deputy-guard-'));
const host = await createHost({ dataDir, env: {}, logError: () => {} });
const server = await startHttpServer({
  host,
  token: 'guard-token',
  port: 0,
  rendererDir: dataDir,
  logError: () => {},
});
console.log(`listening ${server.url}`);
const secret = `xoxb-${'7'.repeat(24)}`;
setTimeout(() => {
  throw new Error(`a timer blew up holding ${secret}`);
}, 50);
setTimeout(
  () => void Promise.reject(new Error(`a promise nobody awaited, with Bearer ${'z'.repeat(30)}`)),
  100,
);
process.on('SIGTERM', () => {
  void server.close().then(async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
