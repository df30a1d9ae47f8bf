import { afterEach, describe, expect, it } from 'vitest';
import { fairTurn, takeTurn } from '../../../electron/engine/fair-turns';
import type { ModelClient, ModelStreamEvent } from '../../../electron/llm/model-client';
import { collect, openHost, type HostFixture } from '../../support/host-fixture';

/** Keeps the main thread for `ms`, as a chunk's parsing, journal write and broadcast would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

const nextLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('fair turns on the main thread', () => {
  it('lets a run go on at once while the loop turn is young, and makes it wait once the turn is old', async () => {
    busy(6);
    await fairTurn();
    // The turn just began: the run goes on.
    expect(fairTurn()).toBeUndefined();
    busy(6);
    const turn = fairTurn();
    expect(turn).toBeInstanceOf(Promise);
    await turn;
  });

  it('lets the waiting runs go one per loop turn, oldest first, with other work in between', async () => {
    await nextLoopTurn();
    busy(6);
    const order: string[] = [];
    const waits = ['a', 'b', 'c'].map((name) => fairTurn()?.then(() => order.push(name)));
    expect(waits.every((wait) => wait instanceof Promise)).toBe(true);
    // Work queued by someone else after the three runs still gets in between them.
    setImmediate(() => order.push('other'));
    await Promise.all(waits);
    expect(order.filter((name) => name !== 'other')).toEqual(['a', 'b', 'c']);
    expect(order.indexOf('other')).toBeGreaterThan(0);
    expect(order.indexOf('other')).toBeLessThan(order.length - 1);
  });

  it('keeps the step’s unit of work open while the run waits (the writes commit at the step’s own boundary)', async () => {
    await nextLoopTurn();
    busy(6);
    const waited: Promise<void>[] = [];
    const writes = {
      waitTurn: (turn: Promise<void>): Promise<void> => {
        waited.push(turn);
        return turn;
      },
    };
    await takeTurn(writes);
    expect(waited).toHaveLength(1);
  });
});

describe('a streaming answer takes turns', () => {
  let fixture: HostFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('lets the rest of the app in while a long answer streams, instead of handling every chunk in one go', async () => {
    const chunks = 40;
    let deltasWhenOthersRan: number | null = null;
    let deltas = 0;
    const model: ModelClient = {
      async *stream(): AsyncIterable<ModelStreamEvent> {
        for (let index = 0; index < chunks; index += 1) {
          // The first chunk asks for a turn of the loop for someone else (a click, a timer, another run).
          if (index === 0) setImmediate(() => (deltasWhenOthersRan ??= deltas));
          busy(1);
          yield { type: 'text', text: `${index} ` };
        }
        yield {
          type: 'finish',
          finishReason: 'STOP',
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        };
      },
    };
    fixture = await openHost(model);
    const events = collect(fixture.host);
    fixture.host.subscribe('run.events', {}, (event) => {
      if (event.type === 'delta') deltas += 1;
    });
    const response = await fixture.host.runToEnd({ prompt: 'Tell me a long story' });

    expect(response.ok).toBe(true);
    expect(events.filter((event) => event.type === 'delta')).toHaveLength(chunks);
    // Without turns every chunk would be handled before the loop came round: all 40.
    expect(deltasWhenOthersRan).not.toBeNull();
    expect(deltasWhenOthersRan).toBeLessThan(chunks);
  });
});
