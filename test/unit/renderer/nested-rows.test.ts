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
  // It used to follow the answer's opening words when they were the run's next row. While a run is live, those
  // words cannot be told from its final answer (planned calls' cards sit inside the tree, so the answer often
  // follows the request directly), and the tree jumped down when the first words arrived.
  it('right under the request, before the answer’s words, so it stays put when they start streaming', () => {
    const before = [message('ask', 'user', 'r1')];
    const streaming = { ...message('here', 'assistant', 'r1'), isStreaming: true } as TimelineRow;
    expect(ids(nestedRows(before, extras))).toEqual(['ask', 'plan-p1']);
    expect(ids(nestedRows([...before, streaming], extras))).toEqual(['ask', 'plan-p1', 'here']);
    const rows = [...before, message('here', 'assistant', 'r1'), tool('t1', 'r1')];
    expect(ids(nestedRows(rows, extras))).toEqual(['ask', 'plan-p1', 'here', 't1']);
  });

  it('right under the request when the run goes straight to work', () => {
    expect(ids(nestedRows([message('ask', 'user', 'r1'), tool('t1', 'r1')], extras))).toEqual([
      'ask',
      'plan-p1',
      't1',
    ]);
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
