import { describe, expect, it } from 'vitest';
import { nestedRows } from '../../../renderer/src/features/chat/nested-rows';
import type { TimelineRow } from '../../../renderer/src/features/chat/timeline-rows';
import type { Plan } from '../../../shared/contract';

const message = (id: string, role: 'user' | 'assistant', runId: string): TimelineRow => ({
  kind: 'message',
  id,
  runId,
  role,
  text: id,
  isStreaming: false,
});
const tool = (id: string, runId: string) =>
  ({ kind: 'tool', id, runId, tool: 'list_tasks', args: {}, state: 'completed' }) as unknown as TimelineRow;
const plan = { id: 'p1' } as unknown as Plan;
const ids = (rows: ReturnType<typeof nestedRows>) => rows.map((row) => row.id);
const extras = { plans: [{ plan, runId: 'r1' }], nodes: [], artifacts: {} };

describe('where a plan tree sits in the conversation', () => {
  it('after the words the answer opens with, which introduce it', () => {
    const rows = [message('ask', 'user', 'r1'), message('here', 'assistant', 'r1'), tool('t1', 'r1')];
    expect(ids(nestedRows(rows, extras))).toEqual(['ask', 'here', 'plan-p1', 't1']);
  });

  it('right under the request when the run goes straight to work, or has nothing after it yet', () => {
    expect(ids(nestedRows([message('ask', 'user', 'r1'), tool('t1', 'r1')], extras))).toEqual([
      'ask',
      'plan-p1',
      't1',
    ]);
    expect(ids(nestedRows([message('ask', 'user', 'r1')], extras))).toEqual(['ask', 'plan-p1']);
  });

  it('never after another run’s words', () => {
    const rows = [message('ask', 'user', 'r1'), message('other', 'assistant', 'r2')];
    expect(ids(nestedRows(rows, extras))).toEqual(['ask', 'plan-p1', 'other']);
  });

  it('before what the run’s agents made, when the request is all there is of the run so far', () => {
    const artifacts = { r1: [{ id: 'a1' }] } as unknown as Parameters<typeof nestedRows>[1]['artifacts'];
    expect(ids(nestedRows([message('ask', 'user', 'r1')], { ...extras, artifacts }))).toEqual([
      'ask',
      'plan-p1',
      'artifacts-r1',
    ]);
  });
});
