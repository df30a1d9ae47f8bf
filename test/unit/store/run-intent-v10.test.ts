import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../electron/store/store';
import { FROZEN_ANALYSIS } from '../../fixtures/intent-v10';

/**
 * A frozen database as Deputy left it at schema version 10 (made once, never rewritten): a run whose model stated
 * its intent, one whose model did not, and one from before intents were kept. `runs.intent_json` is a disk
 * format: a change to RunIntent that no longer reads these rows shows up here.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v10-intent.db');

describe('the intent analysis kept with each run (version 10)', () => {
  it('still reads: stated, not stated, and none', () => {
    const before = readFileSync(FIXTURE);
    const dir = mkdtempSync(join(tmpdir(), 'deputy-v10-'));
    const file = join(dir, 'deputy.db');
    copyFileSync(FIXTURE, file);
    const store = Store.open(file);
    try {
      const [stated, notStated, none] = store.runs.byThread('t1');
      expect(stated?.intent).toEqual({
        stated: true,
        source: 'state_intent',
        turn: 1,
        question: null,
        analysis: FROZEN_ANALYSIS,
      });
      expect(notStated?.intent).toEqual({ stated: false, turn: 1 });
      expect(none?.intent).toBeNull();
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });
});
