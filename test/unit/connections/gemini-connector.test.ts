import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiConnector } from '../../../electron/connections/gemini-connector';
import type { GeminiKeyCheck } from '../../../electron/llm/gemini-models';
import { openDatabase } from '../../../electron/store/database';
import { createKeyFileCipher } from '../../../electron/vault/cipher';
import { Vault } from '../../../electron/vault/vault';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A connector whose key checks end when the test says, in any order. */
function connectorWithHeldChecks() {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-gemini-connector-'));
  dirs.push(dir);
  const vault = new Vault(openDatabase(':memory:'), createKeyFileCipher(join(dir, 'vault.key')));
  const held = new Map<string, (check: GeminiKeyCheck) => void>();
  const connector = new GeminiConnector(
    vault,
    {},
    () => {},
    (apiKey) => new Promise((resolve) => held.set(apiKey, resolve)),
  );
  const answer = (apiKey: string, check: GeminiKeyCheck) => held.get(apiKey)?.(check);
  const asked = () => [...held.keys()];
  return { vault, connector, answer, asked };
}

const FIRST = 'AIzaSyA-first-key-0000000000000000000000';
const SECOND = 'AIzaSyB-second-key-000000000000000000000';

describe('GeminiConnector: a key checked while another request came', () => {
  it('keeps the key asked for last, when the earlier one’s check ends after it', async () => {
    const { vault, connector, answer } = connectorWithHeldChecks();
    const first = connector.connect({ name: 'gemini', apiKey: FIRST });
    const second = connector.connect({ name: 'gemini', apiKey: SECOND });
    answer(SECOND, 'accepted');
    await expect(second).resolves.toMatchObject({ status: { state: 'connected' } });
    answer(FIRST, 'accepted');
    await expect(first).rejects.toMatchObject({ code: 'conflict' });
    expect(vault.get('gemini.apiKey')).toBe(SECOND);
  });

  it('does not save a key over a Disconnect made while it was checked', async () => {
    const { vault, connector, answer } = connectorWithHeldChecks();
    const saving = connector.connect({ name: 'gemini', apiKey: FIRST });
    await connector.disconnect();
    answer(FIRST, 'accepted');
    const refusal = await saving.catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'conflict' });
    expect(String((refusal as Error).message)).not.toContain(FIRST);
    expect(vault.has('gemini.apiKey')).toBe(false);
  });
});

describe('GeminiConnector: a key pasted with what surrounded it', () => {
  it('checks and saves the key alone, from a .env or shell line, quoted or not', async () => {
    for (const pasted of [
      `GEMINI_API_KEY="${FIRST}"`,
      `export GEMINI_API_KEY=${FIRST}`,
      `  '${FIRST}'\n`,
      FIRST,
    ]) {
      const { vault, connector, answer, asked } = connectorWithHeldChecks();
      const saving = connector.connect({ name: 'gemini', apiKey: pasted });
      expect(asked()).toEqual([FIRST]);
      answer(FIRST, 'accepted');
      await expect(saving).resolves.toMatchObject({ status: { state: 'connected' } });
      expect(vault.get('gemini.apiKey')).toBe(FIRST);
    }
  });
});

describe('GeminiConnector: a key with a character no key has', () => {
  it('drops characters nobody sees, and checks and saves the key alone', async () => {
    const { vault, connector, answer, asked } = connectorWithHeldChecks();
    const saving = connector.connect({
      name: 'gemini',
      apiKey: `\u200B${FIRST.slice(0, 10)}\u00AD${FIRST.slice(10)}\uFEFF`,
    });
    expect(asked()).toEqual([FIRST]);
    answer(FIRST, 'accepted');
    await expect(saving).resolves.toMatchObject({ status: { state: 'connected' } });
    expect(vault.get('gemini.apiKey')).toBe(FIRST);
  });

  it('refuses a key with a space, a line break or a letter outside A–Z, says where, and checks nothing', async () => {
    for (const [pasted, at] of [
      [`${FIRST.slice(0, 5)}é${FIRST.slice(5)}`, 6],
      [`${FIRST.slice(0, 20)}\n${FIRST.slice(20)}`, 21],
      [`${FIRST.slice(0, 3)} ${FIRST.slice(3)}`, 4],
      [`${FIRST}😀`, FIRST.length + 1],
    ] as const) {
      const { vault, connector, asked } = connectorWithHeldChecks();
      const refusal = await connector
        .connect({ name: 'gemini', apiKey: pasted })
        .catch((error: unknown) => error);
      expect(refusal).toMatchObject({ code: 'invalid_input' });
      expect((refusal as Error).message).toContain(`character ${at} of it`);
      expect((refusal as Error).message).not.toContain(FIRST.slice(0, 12));
      expect(asked()).toEqual([]);
      expect(vault.has('gemini.apiKey')).toBe(false);
    }
  });
});
