import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../../../electron/mcp/mcp-servers';
import { Store } from '../../../electron/store/store';
import { ToolRegistry } from '../../../electron/tools/registry';
import type { SecretCipher } from '../../../electron/vault/cipher';
import { Vault } from '../../../electron/vault/vault';

/** A keychain that is locked: nothing can be stored in the vault. */
const lockedKeychain: SecretCipher = {
  unavailableReason: () => 'The keychain is locked.',
  encrypt: () => {
    throw new Error('locked');
  },
  decrypt: () => {
    throw new Error('locked');
  },
};

const opened: McpServers[] = [];
afterEach(async () => {
  for (const servers of opened.splice(0)) await servers.close();
});

describe('importing MCP servers when one cannot be saved', () => {
  it('names that server in the answer with why, and saves the others', async () => {
    const store = Store.open(':memory:');
    const servers = new McpServers({
      registry: new ToolRegistry([]),
      settings: store.settings,
      vault: new Vault(store.db, lockedKeychain),
      now: () => new Date(),
      keepFull: () => {},
    });
    opened.push(servers);
    // Turned off, so nothing starts: only saving is tried. The second's secret needs the vault.
    const off = { command: process.execPath, args: ['-e', '0'], disabled: true };
    const answer = await servers.import({
      text: JSON.stringify({
        mcpServers: { plain: off, keyed: { ...off, env: { API_TOKEN: 'a-token-of-no-known-shape-7f3a9c' } } },
      }),
    });
    expect(answer.imported).toEqual(['plain']);
    expect(answer.secretsStored).toBe(0);
    expect(answer.skipped).toEqual([
      { name: 'keyed', reason: 'It could not be saved: The keychain is locked.' },
    ]);
    expect(servers.list().map((server) => server.name)).toEqual(['plain']);
    store.close();
  });
});
