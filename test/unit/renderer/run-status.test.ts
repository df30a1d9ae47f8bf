import { describe, expect, it } from 'vitest';
import type { ActionState } from '../../../shared/contract';
import {
  isWaitingForApproval,
  runActivityText,
  runStatusText,
} from '../../../renderer/src/features/chat/run-status';
import type { TimelineItem } from '../../../renderer/src/features/chat/timeline';

describe('the line under a running conversation', () => {
  it('says how many runs a queued run waits for, in words', () => {
    expect(runStatusText('queued', 1)).toBe('Queued — waiting for 1 other run to finish');
    expect(runStatusText('queued', 3)).toBe('Queued — waiting for 3 other runs to finish');
  });

  it('says starting for a run not (yet) known to wait, and ignores a place in line once it works', () => {
    expect(runStatusText('queued')).toBe('Starting…');
    expect(runStatusText('planning', 2)).toBe('Planning…');
  });
});

describe('what a running run is doing, from its latest row', () => {
  const writing: TimelineItem = {
    kind: 'message',
    id: 'm1',
    runId: 'r1',
    role: 'assistant',
    text: 'Here is',
    isStreaming: true,
  };
  const tool = (state: ActionState): TimelineItem => ({
    kind: 'tool',
    id: 'a1',
    runId: 'r1',
    tool: 'slack_read',
    args: {},
    state,
  });
  const notice = (actionId: string, from: string): TimelineItem => ({
    kind: 'notice',
    id: `notice-${actionId}`,
    runId: 'r1',
    text: 'Something. Trying again in 1 s.',
    tool: from,
  });

  it('says Writing… while its answer streams, not Planning…', () => {
    expect(runActivityText('r1', [writing])).toBe('Writing…');
    expect(runActivityText('r1', [{ ...writing, isStreaming: false }])).toBeNull();
    // Another run's rows say nothing about this one.
    expect(runActivityText('r2', [writing])).toBeNull();
  });

  it('says it waits to try again after Gemini failed, or while a call that failed is still going', () => {
    expect(runActivityText('r1', [writing, notice('r1', 'gemini')])).toBe('Waiting to try again…');
    expect(runActivityText('r1', [tool('executing'), notice('a1', 'slack_read')])).toBe(
      'Waiting to try again…',
    );
    // A notice about a finished call (what it did, an undo) or a resumed run is news, not a wait.
    expect(runActivityText('r1', [tool('completed'), notice('a1', 'slack_read')])).toBeNull();
    expect(runActivityText('r1', [notice('r1', 'chat')])).toBeNull();
  });

  it('knows the run waits for the person while a child agent’s call waits for approval', () => {
    const childCall = (state: ActionState): TimelineItem => ({ ...tool(state), runId: 'child' });
    expect(isWaitingForApproval([tool('executing'), childCall('awaiting_confirmation')])).toBe(true);
    expect(isWaitingForApproval([tool('executing'), childCall('executing')])).toBe(false);
  });
});
