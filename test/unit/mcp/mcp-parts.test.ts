import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../../electron/mcp/bounded-log';
import { StartOutput } from '../../../electron/mcp/start-problem';
import { isSecret, parseMcpServersBlock } from '../../../electron/mcp/import-config';
import { mapMcpResult, RESULT_TEXT_CAP } from '../../../electron/tools/mcp/mcp-result';
import { createMcpTool, namespacedName } from '../../../electron/tools/mcp/mcp-tool';

/** A GitHub token's shape: ghp_ and 36 letters and digits. */
const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7h8`;

const deps = { call: async () => ({}), autonomy: () => null, keepFull: () => {}, isExternal: false };

describe('MCP tools from a server list', () => {
  it('takes risk from the annotations: read, destructive, anything else a side effect', () => {
    const read = createMcpTool('fs', { name: 'read', annotations: { readOnlyHint: true } }, deps);
    const wipe = createMcpTool('fs', { name: 'wipe', annotations: { destructiveHint: true } }, deps);
    const other = createMcpTool('fs', { name: 'other' }, deps);
    expect([read?.hasSideEffects, read?.risk]).toEqual([false, 'low']);
    expect([wipe?.hasSideEffects, wipe?.risk]).toEqual([true, 'high']);
    expect([other?.hasSideEffects, other?.risk]).toEqual([true, 'medium']);
    expect(other?.mcpServer).toBe('fs');
  });

  it('names tools server__tool in the letters Gemini takes, and leaves out names too long', () => {
    expect(namespacedName('fs', 'read file/now')).toBe('fs__read_file_now');
    expect(namespacedName('fs', 'x'.repeat(70))).toBeNull();
  });

  it('labels its answers as the server’s, and checks arguments against the server’s schema', async () => {
    const tool = createMcpTool(
      'fs',
      {
        name: 'read',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        annotations: { readOnlyHint: true },
      },
      { ...deps, call: async () => ({ content: [{ type: 'text', text: 'hi' }] }) },
    );
    expect(tool?.input.safeParse({}).success).toBe(false);
    expect(tool?.input.safeParse({ path: '/a' }).success).toBe(true);
    const output = await tool?.execute({ path: '/a' }, {} as never);
    expect(tool?.provenance?.(output ?? {})).toEqual([
      { label: 'what read on the MCP server “fs” returned', text: JSON.stringify(output) },
    ]);
  });
});

describe('MCP answers for Gemini', () => {
  it('maps text, images, resources and structured content, and caps text', () => {
    const big = 'x'.repeat(RESULT_TEXT_CAP + 10);
    const mapped = mapMcpResult({
      content: [
        { type: 'text', text: big },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'body' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
      ],
      structuredContent: { n: 1 },
      isError: true,
    });
    expect(mapped.isTruncated).toBe(true);
    const parts = mapped.output.content as Record<string, unknown>[];
    expect((parts[0]?.text as string).length).toBe(RESULT_TEXT_CAP);
    expect(parts[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(parts[1]).not.toHaveProperty('data');
    expect(mapped.output).toMatchObject({ isError: true, truncated: true });
    expect(mapMcpResult({ content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } })).toEqual({
      output: { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } },
      isTruncated: false,
    });
  });
});

describe('importing mcpServers blocks', () => {
  it('reads Gemini CLI remote servers and sets secret headers apart', () => {
    const { servers } = parseMcpServersBlock(
      JSON.stringify({
        mcpServers: {
          remote: {
            httpUrl: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer abc', 'X-Team': 'a' },
          },
          old: { url: 'https://mcp.example.com/sse', timeout: 90_000, trust: true },
        },
      }),
    );
    expect(servers[0]).toMatchObject({
      name: 'remote',
      config: { transport: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } },
      secrets: { headers: { Authorization: 'Bearer abc' } },
    });
    // Gemini CLI's trust is not carried over, and a time limit stays under the registry's.
    expect(servers[1]?.config).toMatchObject({ autonomy: null, callTimeoutSeconds: 55 });
  });

  it('tells secrets by name or by shape', () => {
    expect(isSecret('GITHUB_PERSONAL_ACCESS_TOKEN', 'x')).toBe(true);
    expect(isSecret('SOMETHING', 'ghp_abcdef')).toBe(true);
    expect(isSecret('LOG_LEVEL', 'debug')).toBe(false);
    expect(isSecret('ROOT', '/home/me/projects/deputy-and-more')).toBe(false);
  });
});

describe('the bounded log', () => {
  it('keeps the last lines only, each cut to size', () => {
    const log = new BoundedLog(3);
    log.write(`${'y'.repeat(5_000)}\n`);
    for (let index = 0; index < 10; index += 1) log.write(`line ${index}\n`);
    const lines = log.snapshot();
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/line 9$/);
  });

  it('shows a line the server has not ended yet with its secrets taken out', () => {
    const log = new BoundedLog();
    log.write(`Using token ${GITHUB_TOKEN}`);
    expect(log.snapshot().join('\n')).not.toContain(GITHUB_TOKEN.slice(4, 20));
  });

  it('takes a secret out before cutting a long line, so no part of it is kept', () => {
    const log = new BoundedLog();
    // The token starts 1,990 characters in: cut to 2,000 first, what is left of it no longer looks like a token.
    log.write(`${'y'.repeat(1_978)} token is ${GITHUB_TOKEN}\n`);
    expect(log.snapshot().join('\n')).not.toContain(GITHUB_TOKEN.slice(4, 10));
  });
});

describe('what a server said as it failed to start', () => {
  it('takes a secret out before cutting the line it quotes, so no part of it is kept', () => {
    const output = new StartOutput();
    output.write(`Error: ${'y'.repeat(270)} bad token ${GITHUB_TOKEN}\n`);
    expect(output.reason()).not.toContain(GITHUB_TOKEN.slice(4, 10));
  });
});
