import { describe, expect, it } from 'vitest';
import {
  countUncommittedEffects,
  duplicateCount,
  findDuplicates,
  findMissingEffects,
  findStuckRuns,
} from '../../chaos/checks';
import type { EffectsAtFakes } from '../../chaos/fakes';
import { LedgerHistory } from '../../chaos/history';
import type { LedgerAction, LedgerRun, LedgerSnapshot } from '../../chaos/ledger';
import { countDistinct, stuckPatterns } from '../../chaos/report';

const action = (id: string, runId: string, tool: string, state: string): LedgerAction => ({
  id,
  runId,
  callId: `call-${id}`,
  tool,
  state,
  error: null,
});

const run = (id: string, prompt: string, status: string): LedgerRun => ({
  id,
  prompt,
  status,
  errorCode: null,
  errorMessage: null,
});

function snapshot(partial: Partial<LedgerSnapshot>): LedgerSnapshot {
  return {
    schemaVersion: 4,
    runs: [],
    actions: [],
    approvals: [],
    runsWithPendingApproval: new Set(),
    ...partial,
  };
}

const noEffects = (): EffectsAtFakes => ({ mail: [], events: [], posts: [] });

describe('chaos checks', () => {
  it('counts every extra copy of an effect as a duplicate and shows the run’s ledger trail', () => {
    const history = new LedgerHistory();
    const ledger = snapshot({
      runs: [run('r7', 'chaos run 7', 'completed')],
      actions: [action('a1', 'r7', 'slack_send', 'committed')],
    });
    history.observe(snapshot({ ...ledger, actions: [action('a1', 'r7', 'slack_send', 'started')] }), 1);
    history.observe(ledger, 2);
    const effects = noEffects();
    effects.posts = [
      { marker: 'chaos-7', key: 'k1' },
      { marker: 'chaos-7', key: 'k1' },
      { marker: 'chaos-7', key: 'k1' },
      { marker: 'chaos-8', key: 'k2' },
    ];
    const duplicates = findDuplicates(effects, ledger, history);
    expect(duplicateCount(duplicates)).toBe(2);
    expect(duplicates).toEqual([
      {
        tool: 'slack_send',
        marker: 'chaos-7',
        count: 3,
        keys: ['k1', 'k1', 'k1'],
        runIds: ['r7'],
        ledger: [expect.objectContaining({ actionId: 'a1', states: ['c1:started', 'c2:committed'] })],
      },
    ]);
  });

  it('reports a commit that a later snapshot no longer holds, once', () => {
    const history = new LedgerHistory();
    expect(
      history.observe(snapshot({ actions: [action('a1', 'r1', 'gmail_send', 'committed')] }), 1),
    ).toEqual([]);
    const lost = history.observe(snapshot({ actions: [action('a1', 'r1', 'gmail_send', 'unknown')] }), 2);
    expect(lost).toEqual([
      expect.objectContaining({ actionId: 'a1', reason: 'state_changed', committedInCycle: 1 }),
    ]);
    expect(history.observe(snapshot({ actions: [] }), 3)).toEqual([]);
    const vanished = new LedgerHistory();
    vanished.observe(snapshot({ actions: [action('a2', 'r1', 'gmail_send', 'committed')] }), 1);
    expect(vanished.observe(snapshot({}), 2)).toEqual([expect.objectContaining({ reason: 'row_missing' })]);
  });

  it('treats "completed" as committed in a database from before the ledger states', () => {
    const history = new LedgerHistory();
    history.observe(
      snapshot({ schemaVersion: 3, actions: [action('a1', 'r1', 'gmail_send', 'completed')] }),
      1,
    );
    expect(history.committedActions()).toHaveLength(1);
  });

  it('finds a committed action whose effect never reached the fake', () => {
    const history = new LedgerHistory();
    const ledger = snapshot({
      runs: [run('r1', 'chaos run 1', 'completed'), run('r2', 'chaos run 2', 'completed')],
      actions: [
        action('a1', 'r1', 'calendar_event_create', 'committed'),
        action('a2', 'r2', 'calendar_event_create', 'committed'),
      ],
    });
    history.observe(ledger, 1);
    const effects = noEffects();
    effects.events = [{ marker: 'chaos-1', key: 'x' }];
    expect(findMissingEffects(effects, ledger, history)).toEqual([
      expect.objectContaining({ actionId: 'a2', reason: 'effect_missing' }),
    ]);
    expect(countUncommittedEffects(effects, ledger)).toBe(0);
    effects.mail = [{ marker: 'chaos-2', key: 'y' }];
    expect(countUncommittedEffects(effects, ledger)).toBe(1);
  });

  it('calls a run stuck unless it finished or waits on a pending approval', () => {
    const ledger = snapshot({
      runs: [
        run('done', 'chaos run 1', 'completed'),
        run('failed', 'chaos run 2', 'failed'),
        run('waiting', 'chaos run 3', 'awaiting_confirmation'),
        run('orphan', 'chaos run 4', 'awaiting_confirmation'),
        run('midway', 'chaos run 5', 'executing'),
      ],
      actions: [action('a1', 'orphan', 'gmail_send', 'awaiting_confirmation')],
      approvals: [{ id: 'p1', runId: 'orphan', tool: 'gmail_send', status: 'approved' }],
      runsWithPendingApproval: new Set(['waiting']),
    });
    const stuck = findStuckRuns(ledger);
    expect(stuck.map((run) => run.runId)).toEqual(['orphan', 'midway']);
    expect(stuck[0]).toMatchObject({
      actions: ['gmail_send:awaiting_confirmation'],
      approvals: ['gmail_send:approved'],
    });
    expect(stuckPatterns(stuck)).toEqual([
      [
        'awaiting_confirmation, last action gmail_send:awaiting_confirmation, last approval gmail_send:approved',
        1,
      ],
      ['executing, last action none, last approval none', 1],
    ]);
  });

  it('counts the same failure of many runs as one line, ids blanked out', () => {
    expect(
      countDistinct([
        'internal: run 0ab430af-42d5-42db-97f7-3b9287c265bc broke',
        'internal: run c95d7926-cf7e-4c60-af85-198bd73f5075 broke',
        'cancelled: Stopped.',
      ]),
    ).toEqual([
      { text: 'internal: run <id> broke', count: 2 },
      { text: 'cancelled: Stopped.', count: 1 },
    ]);
  });
});
