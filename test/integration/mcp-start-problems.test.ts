import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHost, type HostFixture } from '../support/host-fixture';
import { listenLocally, putServer, serverView, stdio, waitForServer } from '../support/mcp-kit';
import { ScriptedModel } from '../support/scripted-model';

/** A local address that answers every request with `status`, as a server behind a wrong token does. */
async function answering(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(status).end('no'));
  return listenLocally(server);
}

/**
 * A server added with a typo, a missing folder or a missing key: Settings says what is wrong in words a person can
 * act on, not in Node's or the SDK's ("spawn node ENOENT", “MCP error -32000: Connection closed”, “fetch failed”).
 */
describe('an MCP server that cannot start', () => {
  let fixture: HostFixture;
  let folder: string;
  const servers: Server[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-mcp-start-'));
    fixture = await openHost(new ScriptedModel());
  });

  afterAll(async () => {
    await fixture.close();
    for (const server of servers) server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function whyNot(name: string, config: Record<string, unknown>): Promise<string> {
    await putServer(fixture.host, name, config);
    const view = await waitForServer(fixture.host, name, (server) => server.state === 'restarting');
    return view.error ?? '';
  }

  it('names a program that is not there', async () => {
    expect(await whyNot('typo', { transport: 'stdio', command: 'npx-typo-not-installed' })).toBe(
      'The MCP server “typo” could not start. Deputy could not find the program “npx-typo-not-installed”. ' +
        'Check that it is installed, or give its full path.',
    );
  });

  it('names a missing working folder, rather than blaming the program', async () => {
    const missing = join(folder, 'no-such-folder');
    expect(await whyNot('nocwd', stdio(join(folder, 'x.mjs'), [], { cwd: missing }))).toBe(
      `The MCP server “nocwd” could not start. Its working folder ${missing} does not exist.`,
    );
  });

  it('says a file is not a program it may run', async () => {
    const notes = join(folder, 'notes.txt');
    writeFileSync(notes, 'not a program');
    chmodSync(notes, 0o644);
    expect(await whyNot('notprog', { transport: 'stdio', command: notes })).toMatch(
      /could not start\. Deputy may not run “.*notes\.txt”: it is not a program/,
    );
  });

  it('quotes what a server said as it exited', async () => {
    const script = join(folder, 'exits.mjs');
    writeFileSync(
      script,
      "console.error('Starting odd server v1.2');\nconsole.error('Error: no config file at /home/me/.odd.json');\nconsole.error('    at main (file:///odd.mjs:3:9)');\nprocess.exit(3);\n",
    );
    expect(await whyNot('exits', stdio(script))).toBe(
      'The MCP server “exits” could not start. It stopped before it answered, saying: Error: no config file at /home/me/.odd.json',
    );
  });

  it.each([
    [
      'its last line whole when it came in pieces, a character split between them too',
      'pieces',
      // "é" is two bytes in UTF-8: the first write ends after its first byte, the rest of the line comes later.
      "const line = Buffer.from('Error: the folder Documents/Résumés is not shared\\n');\nconst cut = line.indexOf(Buffer.from('é')) + 1;",
      'Error: the folder Documents/Résumés is not shared',
    ],
    [
      'a last line the server did not end before it exited',
      'unended',
      "const line = Buffer.from('Error: missing API key');\nconst cut = 14;",
      'Error: missing API key',
    ],
  ])('quotes %s', async (_what, name, cutLine, said) => {
    const script = join(folder, `${name}.mjs`);
    const writeInTwo =
      'process.stderr.write(line.subarray(0, cut));\nsetTimeout(() => process.stderr.write(line.subarray(cut), () => process.exit(2)), 200);\n';
    writeFileSync(script, `${cutLine}\n${writeInTwo}`);
    expect(await whyNot(name, stdio(script))).toBe(
      `The MCP server “${name}” could not start. It stopped before it answered, saying: ${said}`,
    );
  });

  it('says when nothing listens at an address, and when the address refuses Deputy', async () => {
    const closed = await answering(200);
    closed.server.close();
    expect(await whyNot('refused', { transport: 'http', url: closed.url })).toBe(
      `The MCP server “refused” could not start. Nothing is listening at ${new URL(closed.url).origin}. Check that the server is running and that the address is right.`,
    );
    const locked = await answering(401);
    servers.push(locked.server);
    expect(await whyNot('locked', { transport: 'http', url: `${locked.url}?key=abc` })).toBe(
      `The MCP server “locked” could not start. The server at ${new URL(locked.url).origin} refused Deputy (HTTP 401). Check the token or headers it needs.`,
    );
    // Its card points at the secret it sends; the one nothing answered at has none to blame.
    expect((await serverView(fixture.host, 'locked')).isRefused).toBe(true);
    expect((await serverView(fixture.host, 'refused')).isRefused).toBeUndefined();
  });

  it('names an address without the key some servers take in its path, which a call to it would repeat', async () => {
    const missing = await answering(404);
    servers.push(missing.server);
    const origin = new URL(missing.url).origin;
    const key = 'ak9f3kq0xv7m2p8d4n6w1z5c';
    expect(await whyNot('keyed', { transport: 'http', url: `${origin}/api/mcp/s/${key}/mcp` })).toBe(
      `The MCP server “keyed” could not start. Nothing at ${origin} answers MCP requests (HTTP 404). Check the address.`,
    );
  });

  it('answers Save and Restart of a server that hangs at start within seconds, showing it starting', async () => {
    // A program that runs but never answers MCP's first message: its start would take the full 30 s to fail.
    const silent = {
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
    };
    const within = async <T>(work: Promise<T>, ms: number): Promise<T | 'too slow'> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'too slow'>((resolve) => (timer = setTimeout(() => resolve('too slow'), ms)));
      const answer = await Promise.race([work, late]);
      clearTimeout(timer);
      return answer;
    };
    // Each answers after its 5 s wait: 12 s is well under the 30 s, with room for a loaded machine.
    const saved = await within(putServer(fixture.host, 'silent', silent), 12_000);
    expect(saved).toMatchObject({ name: 'silent', state: 'starting' });
    const restarted = await within(fixture.host.invoke('mcp.restart', { name: 'silent' }), 12_000);
    expect(restarted).toMatchObject({ server: { name: 'silent', state: 'starting' } });
  }, 40_000);
});
