import { describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../../shared/contract';

vi.mock('electron', () => ({}));

const { runNotice } = await import('../../../electron/shell/run-notifications');

const base = { runId: 'run-1', threadId: 'thread-1' };
const result = (status: 'completed' | 'failed' | 'awaiting_confirmation', summary = 'Filed the report.') =>
  ({
    type: 'result',
    ...base,
    result: { ok: status !== 'failed', ...base, actionId: 'a', status, summary, mode: 'chat', model: 'm' },
  }) as unknown as RunEvent;

describe('which run events notify', () => {
  it('a finished or failed run, with its summary, opening its conversation', () => {
    expect(runNotice(result('completed'))).toEqual({
      kind: 'runFinished',
      title: 'Deputy finished',
      body: 'Filed the report.',
      threadId: 'thread-1',
    });
    expect(runNotice(result('failed', 'No access.'))).toMatchObject({ title: 'Deputy could not finish' });
  });

  it('not a run that stopped for approval: the approval notification covers it', () => {
    expect(runNotice(result('awaiting_confirmation'))).toBeNull();
  });

  it('a rate limit or the budget as its own kind, so it has its own setting', () => {
    const failed = result('failed', 'Gemini is limiting requests');
    expect(runNotice(failed, 'model_rate_limited')).toMatchObject({
      kind: 'limitReached',
      title: 'Deputy reached a limit',
    });
    expect(runNotice(failed, 'rate_limited')).toMatchObject({ kind: 'limitReached' });
    expect(runNotice(failed, 'model_server_error')).toMatchObject({ kind: 'runFinished' });
  });

  it('not the error event itself: its run’s result follows, and one run makes one notification', () => {
    expect(runNotice({ type: 'error', ...base, error: 'boom', code: 'rate_limited' })).toBeNull();
  });

  it('keeps the body to one short line', () => {
    const long = runNotice(result('completed', `line one\n${'x'.repeat(400)}`));
    expect(long?.body.length).toBeLessThanOrEqual(160);
    expect(long?.body).not.toContain('\n');
  });

  it('nothing for the stream in between', () => {
    expect(runNotice({ type: 'delta', ...base, delta: 'Hi' })).toBeNull();
  });
});
