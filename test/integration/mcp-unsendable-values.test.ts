import { afterEach, describe, expect, it } from 'vitest';
import { McpPutInput, McpServerConfig } from '../../shared/contract';
import { dispatchCommand } from '../../electron/host/dispatch';
import { openHost, type HostFixture } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

/**
 * A header value fetch cannot send, or a NUL a process cannot be given: refused when given, with where, instead of
 * a server that retries for ever and whose card says Deputy "could not reach" it.
 */
describe('MCP server settings that could never be sent or started', () => {
  let fixture: HostFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });

  const http = { transport: 'http', url: 'http://127.0.0.1:9/mcp' } as const;
  const stdio = { transport: 'stdio', command: process.execPath } as const;
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'a line break in a header',
      { config: { ...http, headers: { 'X-Team': 'a\r\nX-Evil: 1' } } },
      /the header “X-Team” cannot hold a line break/,
    ],
    [
      'an emoji in a header',
      { config: { ...http, headers: { 'X-Mood': 'sunny ☀' } } },
      /the header “X-Mood” cannot hold .* an emoji/,
    ],
    [
      'an emoji in a secret header',
      {
        config: { ...http, secretHeaders: ['Authorization'] },
        secrets: { headers: { Authorization: 'Bearer ☕ok' } },
      },
      /the header “Authorization” cannot hold/,
    ],
    ['a NUL in an argument', { config: { ...stdio, args: ['-e', 'a\u0000b'] } }, /NUL character/],
    ['a NUL in a variable', { config: { ...stdio, env: { MODE: 'a\u0000' } } }, /NUL character/],
    [
      'a NUL in a secret variable',
      { config: { ...stdio, secretEnv: ['API_TOKEN'] }, secrets: { env: { API_TOKEN: 'x\u0000y' } } },
      /NUL character/,
    ],
  ];

  it.each(cases)(
    'refuses %s as a typed invalid_input that says where, and saves nothing',
    async (_what, input, words) => {
      fixture = await openHost(new ScriptedModel(say('unused')));
      // As every transport (IPC, HTTP, WebSocket) gives it to the host.
      const answer = await dispatchCommand(fixture.host, 'mcp.put', { name: 'far', ...input });
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      const message = answer.ok ? '' : answer.error.message;
      expect(message).toMatch(words);
      expect(message).not.toContain('☕ok');
      expect(message).not.toContain('x\u0000y');
      expect((await fixture.host.invoke('mcp.list', {})).servers).toEqual([]);
    },
  );

  it('skips such an entry of an imported config, with the reason, and imports the others', async () => {
    fixture = await openHost(new ScriptedModel(say('unused')));
    const text = JSON.stringify({
      mcpServers: {
        broken: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer tok\nen-value-1234' } },
        nul: { command: process.execPath, args: ['-e', 'a\u0000b'] },
        fine: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'blue' } },
      },
    });
    const answer = await dispatchCommand(fixture.host, 'mcp.import', { text });
    if (!answer.ok) throw new Error(answer.error.message);
    const imported = answer.data as { imported: string[]; skipped: unknown[] };
    expect(imported.imported).toEqual(['fine']);
    expect(imported.skipped).toEqual([
      {
        name: 'broken',
        reason: expect.stringMatching(/the header “Authorization” cannot hold a line break/),
      },
      { name: 'nul', reason: 'argument 2 cannot hold a NUL character' },
    ]);
    expect(JSON.stringify(imported)).not.toContain('tok\\nen-value');
  });

  it('still reads such settings if they were stored before, so no server is dropped from the list', () => {
    const stored = { ...http, headers: { 'X-Mood': 'sunny ☀' } };
    expect(McpServerConfig.safeParse(stored).success).toBe(true);
    expect(McpPutInput.safeParse({ name: 'far', config: stored }).success).toBe(false);
  });
});
