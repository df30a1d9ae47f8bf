import type { RunEvent, RunResponse } from '../../shared/contract';
import type { RunFailure } from '../engine/model-failure';
import type { Store } from '../store/store';
import { DEFAULT_AGENT_ID } from '../store/runs-repo';
import { plainAnswer } from './run-answer';

export interface Refusal {
  runId: string;
  threadId: string;
  /** The thread's title when the refused request would have opened it; null for a thread that exists. */
  newThreadTitle: string | null;
  prompt: string;
  model: string;
  failure: RunFailure;
  now: string;
  newId: () => string;
}

/**
 * A request refused before it starts (the hour's model-token budget is used up) is kept as a small record: its
 * prompt in the thread and one ended run row saying why, in one transaction. Nothing ran, so nothing else is
 * written: no system instruction, checkpoint, runtime log or stored stream events (a refusal used to write all
 * of these, about 5.7 KB each, and a flood of refused requests filled the disk for nothing). Its AgentDecision
 * (REFUSE, REFUSAL:RATE_LIMITED) is on the run row, its answer and a row of spec 002's DecisionLog (`decisions`);
 * it has no audit entry, which with its indexes, full-text rows and chain link would more than double what each
 * refusal leaves.
 */
export function recordRefusal(store: Store, refusal: Refusal): RunResponse {
  const { runId, threadId, model, prompt, failure, now } = refusal;
  store.transaction(() => {
    if (refusal.newThreadTitle !== null) store.threads.create(threadId, refusal.newThreadTitle, now);
    store.runs.create({ id: runId, threadId, model, prompt }, now);
    store.runs.end(
      runId,
      {
        status: 'failed',
        mode: 'assistant_text',
        summary: failure.message,
        decision: 'REFUSE',
        outcome: 'REFUSAL:RATE_LIMITED',
        errorCode: failure.code,
        errorMessage: failure.message,
      },
      now,
    );
    store.decisions.record(
      {
        runId,
        agentId: DEFAULT_AGENT_ID,
        decision: 'REFUSE',
        outcome: 'REFUSAL:RATE_LIMITED',
        errorCode: failure.code,
        model,
      },
      now,
    );
    store.threads.addMessage({
      id: refusal.newId(),
      threadId,
      runId,
      role: 'user',
      text: prompt,
      createdAt: now,
    });
    store.threads.touch(threadId, now);
  });
  return {
    ...plainAnswer(runId, { threadId, model }, 'failed', failure.message),
    decision: 'REFUSE',
    outcome: 'REFUSAL:RATE_LIMITED',
  };
}

/**
 * The events of a run that ended without working, built from its answer rather than stored: the stream a
 * client sees is the same as for any failed run (queued first, then the error, failed and the result).
 */
export function endingEvents(answer: RunResponse, code: string | null): RunEvent[] {
  const ids = { runId: answer.runId, threadId: answer.threadId };
  return [
    { type: 'error', ...ids, error: answer.summary, ...(code !== null && { code }) },
    { type: 'status', ...ids, status: 'failed' },
    { type: 'result', ...ids, result: answer },
  ];
}
