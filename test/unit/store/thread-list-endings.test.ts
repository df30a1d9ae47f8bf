import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { ThreadsRepo } from '../../../electron/store/threads-repo';
import { PLAN_CANCELLED_WORDS } from '../../../shared/rejection-words';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database with one conversation per run ending given: its last run failed with that code and those words. */
function withEndings(endings: Record<string, [code: string, words: string | null]>) {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-thread-endings-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'deputy.db'));
  const at = '2026-11-28T10:00:00.000Z';
  const addRun = db.prepare(
    `INSERT INTO runs (id, thread_id, status, model, prompt, error_code, error_message, created_at, updated_at)
     VALUES (?, ?, 'failed', 'm', 'p', ?, ?, ?, ?)`,
  );
  const threads = new ThreadsRepo(db);
  for (const [id, [code, words]] of Object.entries(endings)) {
    threads.create(id, id, at);
    addRun.run(`run-${id}`, id, code, words, at, at);
  }
  return { db, threads };
}

describe('the conversation list, of a last run that was cancelled', () => {
  it('tells a plan the person cancelled from a run they stopped, in today’s words and the older ones', () => {
    const { db, threads } = withEndings({
      plan: ['cancelled', PLAN_CANCELLED_WORDS],
      // A run whose plan was cancelled while it worked said this before it said what a paused one says.
      'older-plan': ['cancelled', 'Stopped: you cancelled the plan.'],
      stop: ['cancelled', 'Stopped.'],
      'no-words': ['cancelled', null],
      // The words alone do not make it one: a run that failed otherwise is not a cancelled plan.
      failed: ['model_timeout', PLAN_CANCELLED_WORDS],
    });
    const cancelled = (id: string) => threads.get(id)?.isLastRunPlanCancelled;
    expect(cancelled('plan')).toBe(true);
    expect(cancelled('older-plan')).toBe(true);
    expect(cancelled('stop')).toBeUndefined();
    expect(cancelled('no-words')).toBeUndefined();
    expect(cancelled('failed')).toBeUndefined();
    expect(threads.get('stop')).toMatchObject({ lastRunErrorCode: 'cancelled' });
    // The list's page says it as the conversation does.
    const listed = new Map(threads.list(10).threads.map((thread) => [thread.id, thread]));
    expect(listed.get('plan')?.isLastRunPlanCancelled).toBe(true);
    expect(listed.get('stop')?.isLastRunPlanCancelled).toBeUndefined();
    db.close();
  });
});
