import { describe, expect, it } from 'vitest';
import { McpServerConfig } from '../../../shared/contract';
import { secretInPlainSight } from '../../../electron/mcp/secret-in-plain-sight';

const http = (fields: Partial<McpServerConfig>): McpServerConfig =>
  McpServerConfig.parse({ transport: 'http', url: 'https://mcp.example.com/mcp', ...fields });
const OPENAI_KEY = 'sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901';

describe('what settings would save of MCP servers without', () => {
  it('is nothing for plain settings, key files and names that only look like a secret’s', () => {
    const configs = {
      files: McpServerConfig.parse({
        transport: 'stdio',
        command: 'node',
        args: ['server.js', '--private-key=/home/ana/.ssh/id_ed25519', '--cache-key=notes-v2'],
        env: { LOG_LEVEL: 'debug', ISSUE_KEY: 'PROJ-1234567' },
      }),
      meet: http({ headers: { 'X-Request-Id': 'abc123def456ghi' } }),
    };
    expect(secretInPlainSight(configs, 'files')).toBeNull();
  });

  it.each([
    ['arguments hold', McpServerConfig.parse({ transport: 'stdio', command: 'npx', args: [OPENAI_KEY] })],
    ['URL holds', http({ url: 'https://ana:s3cret-Passw0rd@mcp.example.com/mcp' })],
    ['environment value API_KEY holds', http({ env: { API_KEY: 'abc123def456ghi' } })],
    ['header X-Api-Key holds', http({ headers: { 'X-Api-Key': 'abc123def456ghi' } })],
  ])('names the field of the server saved: %s', (field, config) => {
    expect(secretInPlainSight({ svc: config }, 'svc')).toContain(
      `The server's ${field} what looks like a password or key`,
    );
  });

  it('names another server that saving (or deleting) this one would re-save without a value', () => {
    const configs = { old: http({ env: { SERVICE_PASSWORD: 'plainvalue123' } }), svc: http({}) };
    expect(secretInPlainSight(configs, 'svc')).toContain(
      'take a value out of the MCP server “old”, saved earlier: its environment value SERVICE_PASSWORD holds',
    );
    const { svc: _deleted, ...rest } = configs;
    expect(secretInPlainSight(rest, 'svc')).toContain('the MCP server “old”');
  });
});
