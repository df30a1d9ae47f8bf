import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ModelError,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../electron/llm/model-client';
import { NoteWorld, storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const open: HostFixture[] = [];
const dirs: string[] = [];
const readers: Database.Database[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  for (const fixture of open.splice(0)) await fixture.stop().catch(() => {});
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const loopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A model that answers after the event loop has turned, as a real one does while its answer travels over the
 * network. `onWait` runs at that moment, between the request and the answer.
 */
class NetworkModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  constructor(
    private readonly turns: ModelStreamEvent[][],
    private readonly onWait: (request: number) => void,
  ) {}

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    this.requests.push(request);
    await loopTurn();
    await loopTurn();
    this.onWait(this.requests.length);
    yield* this.turns.shift() ?? [];
  }
}

describe("a step's commit", () => {
  it('writes the turn it asks about with its answer: nothing of the step is committed alone while the model answers', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deputy-step-commit-'));
    dirs.push(dataDir);
    let reader: Database.Database | null = null;
    // Journal rows on disk (as another connection sees them) when each request was sent and while it is answered.
    const onDisk: { sent: number; answering: number }[] = [];
    const rowsOnDisk = (): number =>
      reader?.prepare<[], number>('SELECT count(*) FROM journal').pluck().get() ?? 0;
    let sentRows = 0;
    const world = new NoteWorld();
    const read = (id: string): ModelStreamEvent[] => call('read_notes', {}, id);
    const model = new NetworkModel([read('c1'), read('c2'), read('c3'), say('Read them.')], () =>
      onDisk.push({ sent: sentRows, answering: rowsOnDisk() }),
    );
    const request = model.stream.bind(model);
    model.stream = (asked) => {
      sentRows = rowsOnDisk();
      return request(asked);
    };
    const fixture = await openHost(model, { dataDir, tools: world.tools() });
    open.push(fixture);
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    reader = new Database(storeOf(fixture.host).db.name, { readonly: true });
    readers.push(reader);

    const { runId } = await fixture.host.runToEnd({ prompt: 'Read my notes three times' });

    expect(model.requests).toHaveLength(4);
    // Each request is sent after its step's commit; what the step writes next waits for the answer.
    for (const seen of onDisk) expect(seen.answering).toBe(seen.sent);
    // The turn's start is still logged, first, with the time its request was sent.
    const log = storeOf(fixture.host).events.runtimeByRun(runId);
    const turns = log.filter((event) => event.type === 'turn_start' || event.type === 'turn_end');
    expect(turns.map((event) => `${event.type} ${event.turn}`)).toEqual(
      [1, 2, 3, 4].flatMap((turn) => [`turn_start ${turn}`, `turn_end ${turn}`]),
    );
    const at = turns.map((event) => Date.parse(event.timestamp));
    for (let index = 0; index < at.length; index += 2)
      expect(at[index]).toBeLessThanOrEqual(at[index + 1] ?? 0);
  });
});

describe("a turn's start", () => {
  it('is logged before a retry of its request and before its failure', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deputy-step-commit-'));
    dirs.push(dataDir);
    const model = new ScriptedModel(
      new ModelError('unavailable', 'Busy.'),
      say('Hello.'),
      new ModelError('key_rejected', 'No.'),
    );
    const fixture = await openHost(model, { dataDir });
    open.push(fixture);
    const store = storeOf(fixture.host);
    const typesOf = (runId: string): string[] => store.events.runtimeByRun(runId).map((event) => event.type);

    const retried = await fixture.host.runToEnd({ prompt: 'Hi' });
    expect(typesOf(retried.runId).slice(0, 3)).toEqual(['turn_start', 'retry', 'turn_end']);

    const failed = await fixture.host.runToEnd({ prompt: 'Hi again' });
    // The failure is counted (a `retry` row that decides not to try again), then the run ends on it.
    expect(typesOf(failed.runId)).toEqual(['turn_start', 'retry', 'error']);
  });
});
