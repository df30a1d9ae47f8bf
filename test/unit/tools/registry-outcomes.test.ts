import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DEFAULT_CALL_TIMEOUT_MS, ToolRegistry, type ToolOutcome } from '../../../electron/tools/registry';
import { httpToolError } from '../../../electron/tools/service-errors';
import { ToolError, type Tool, type ToolContext } from '../../../electron/tools/tool';

const Input = z.object({ to: z.string() }).strict();
type Input = z.infer<typeof Input>;
const Output = z.object({ id: z.string() });

/** A side-effect tool whose behaviour each test scripts. */
function scripted(
  execute: (input: Input, context: ToolContext) => Promise<{ id: string }> | { id: string },
  reconcile?: (input: Input, context: ToolContext) => Promise<{ id: string } | null>,
): Tool<Input, { id: string }> {
  return {
    name: 'post_note',
    description: 'Posts a note.',
    input: Input,
    output: Output,
    category: 'external',
    risk: 'high',
    hasSideEffects: true,
    execute,
    ...(reconcile && { reconcile }),
  };
}

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    runId: 'run-1',
    threadId: 'thread-1',
    actionId: 'action-1',
    idempotencyKey: 'key-1',
    signal,
    now: () => new Date('2026-03-09T08:00:00Z'),
  };
}

function checked(registry: ToolRegistry) {
  const check = registry.check('post_note', { to: 'ana' });
  if (!check.ok) throw new Error(check.message);
  return check;
}

async function runWith(
  tool: Tool<Input, { id: string }>,
  options: { callTimeoutMs?: number; signal?: AbortSignal; onUnexpected?: (error: unknown) => void } = {},
): Promise<ToolOutcome> {
  const registry = new ToolRegistry([tool as Tool], undefined, { callTimeoutMs: options.callTimeoutMs });
  return registry.run(checked(registry), context(options.signal), options.onUnexpected);
}

const never = () => new Promise<never>(() => {});

afterEach(() => {
  vi.useRealTimers();
});

describe('ToolRegistry.run failures', () => {
  it('gives a plain ToolError its own code, not transient', async () => {
    const outcome = await runWith(
      scripted(() => {
        throw new ToolError('not_found', 'No channel named #nope.');
      }),
    );
    expect(outcome).toEqual({
      ok: false,
      code: 'tool_failed',
      message: 'No channel named #nope.',
      errorCode: 'not_found',
      transient: false,
      retryAfterSeconds: null,
    });
  });

  it('carries a 429’s Retry-After and marks it transient', async () => {
    const limited = httpToolError('google', 'sending the email', 429, { retryAfterSeconds: 30 });
    const outcome = await runWith(scripted(() => Promise.reject(limited)));
    expect(outcome).toMatchObject({
      ok: false,
      code: 'tool_failed',
      errorCode: 'rate_limited',
      transient: true,
      retryAfterSeconds: 30,
    });
    expect(!outcome.ok && outcome.message).toContain('Try again in 30 s.');
  });

  it('marks a 503 transient and a 403 permanent', async () => {
    const down = await runWith(
      scripted(() => Promise.reject(httpToolError('slack', 'posting to #general', 503))),
    );
    expect(down).toMatchObject({ errorCode: 'unavailable', transient: true, retryAfterSeconds: null });
    const refused = await runWith(
      scripted(() => Promise.reject(httpToolError('google', 'creating the calendar event', 403))),
    );
    expect(refused).toMatchObject({ errorCode: 'forbidden', transient: false, retryAfterSeconds: null });
  });

  it('reports an unexpected throw as internal, generically, and hands the error to onUnexpected', async () => {
    const seen: unknown[] = [];
    const bug = new TypeError('cannot read properties of undefined (secret internals)');
    const outcome = await runWith(
      scripted(() => {
        throw bug;
      }),
      { onUnexpected: (error) => seen.push(error) },
    );
    expect(outcome).toEqual({
      ok: false,
      code: 'tool_failed',
      message: 'The call failed unexpectedly.',
      errorCode: 'internal',
      transient: false,
      retryAfterSeconds: null,
    });
    expect(seen).toEqual([bug]);
  });

  it('returns the result and the parsed arguments when the tool succeeds', async () => {
    const outcome = await runWith(scripted(async (input) => ({ id: `note-for-${input.to}` })));
    expect(outcome).toMatchObject({ ok: true, args: { to: 'ana' }, result: { id: 'note-for-ana' } });
  });
});

describe('ToolRegistry.run time limit', () => {
  it('stops a call that never answers: timeout, transient, and the tool’s signal is aborted', async () => {
    const seenSignals: AbortSignal[] = [];
    const outcome = await runWith(
      scripted((_input, toolContext) => {
        seenSignals.push(toolContext.signal);
        return never();
      }),
      { callTimeoutMs: 30 },
    );
    expect(outcome).toEqual({
      ok: false,
      code: 'tool_failed',
      message: 'The call got no answer within 0.03 s and was stopped.',
      errorCode: 'timeout',
      transient: true,
      retryAfterSeconds: null,
      // Stopped on its way, not refused: a side effect in this state is looked for before it is called failed.
      isCutOff: true,
    });
    expect(seenSignals).toHaveLength(1);
    expect(seenSignals[0]?.aborted).toBe(true);
    expect((seenSignals[0]?.reason as DOMException).name).toBe('TimeoutError');
  });

  it('waits 60 s by default', async () => {
    vi.useFakeTimers();
    expect(DEFAULT_CALL_TIMEOUT_MS).toBe(60_000);
    let settled: ToolOutcome | null = null;
    const pending = runWith(scripted(never)).then((outcome) => (settled = outcome));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled).toMatchObject({ errorCode: 'timeout', message: expect.stringContaining('within 60 s') });
  });

  it('does not abort the signal of a call that answered in time', async () => {
    const seenSignals: AbortSignal[] = [];
    const outcome = await runWith(
      scripted(async (_input, toolContext) => {
        seenSignals.push(toolContext.signal);
        return { id: 'n1' };
      }),
      { callTimeoutMs: 1_000 },
    );
    expect(outcome.ok).toBe(true);
    expect(seenSignals[0]?.aborted).toBe(false);
  });

  it('passes the run’s cancellation on to the tool and reports it as cancelled, not transient', async () => {
    const run = new AbortController();
    const seenSignals: AbortSignal[] = [];
    const pending = runWith(
      scripted((_input, toolContext) => {
        seenSignals.push(toolContext.signal);
        setTimeout(() => run.abort(), 5);
        return never();
      }),
      { signal: run.signal },
    );
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: false, errorCode: 'cancelled', transient: false, isCutOff: true });
    expect(seenSignals[0]?.aborted).toBe(true);
  });

  it('does not start a call whose run is already cancelled', async () => {
    const run = new AbortController();
    run.abort();
    const execute = vi.fn(async () => ({ id: 'n1' }));
    const outcome = await runWith(scripted(execute), { signal: run.signal });
    expect(outcome).toMatchObject({ ok: false, errorCode: 'cancelled' });
    // It never set off: there is nothing to look for.
    expect(outcome).not.toHaveProperty('isCutOff');
    expect(execute).not.toHaveBeenCalled();
  });

  it('refuses a time limit that is not a positive number', () => {
    expect(() => new ToolRegistry([], undefined, { callTimeoutMs: 0 })).toThrow(/callTimeoutMs/);
    expect(() => new ToolRegistry([], undefined, { callTimeoutMs: Number.NaN })).toThrow(/callTimeoutMs/);
  });
});

describe('ToolRegistry.reconcile', () => {
  async function reconcileWith(tool: Tool<Input, { id: string }>, callTimeoutMs?: number) {
    const registry = new ToolRegistry([tool as Tool], undefined, { callTimeoutMs });
    return registry.reconcile(checked(registry), context());
  }
  const execute = () => Promise.reject(new Error('reconcile must never run the call'));

  it('is unsupported for a tool without reconcile', async () => {
    expect(await reconcileWith(scripted(execute))).toEqual({ kind: 'unsupported' });
  });

  it('returns what the tool found, with the key and parsed input it was given', async () => {
    const reconcile = vi.fn(async (input: Input, toolContext: ToolContext) =>
      input.to === 'ana' && toolContext.idempotencyKey === 'key-1' ? { id: 'n7' } : null,
    );
    expect(await reconcileWith(scripted(execute, reconcile))).toEqual({
      kind: 'found',
      result: { id: 'n7' },
    });
    expect(reconcile).toHaveBeenCalledOnce();
  });

  it('is absent when the tool finds no trace', async () => {
    expect(await reconcileWith(scripted(execute, async () => null))).toEqual({ kind: 'absent' });
  });

  it('reports a failed look-up with whether it is worth retrying', async () => {
    const down = httpToolError('google', 'looking for the email this call already sent', 503);
    expect(await reconcileWith(scripted(execute, () => Promise.reject(down)))).toEqual({
      kind: 'failed',
      message: down.message,
      transient: true,
      retryAfterSeconds: null,
    });
    const lapsed = httpToolError('google', 'looking for the email this call already sent', 401);
    expect(await reconcileWith(scripted(execute, () => Promise.reject(lapsed)))).toMatchObject({
      kind: 'failed',
      transient: false,
    });
  });

  it('gives a look-up that hangs the same time limit, as a transient failure', async () => {
    expect(await reconcileWith(scripted(execute, never), 20)).toEqual({
      kind: 'failed',
      message: 'The call could not finish looking for what it had already done within 0.02 s.',
      transient: true,
      retryAfterSeconds: null,
    });
  });

  it('describes an unexpected error generically', async () => {
    const outcome = await reconcileWith(
      scripted(execute, () => Promise.reject(new Error('stack and internals'))),
    );
    expect(outcome).toMatchObject({ kind: 'failed', transient: false });
    expect(outcome.kind === 'failed' && outcome.message).not.toContain('internals');
  });
});
