import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelRequest } from '../../electron/llm/model-client';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { storeOf } from '../support/durable-kit';
import { lastToolResult, rememberAll } from '../support/memory-kit';
import { intentAnalysis } from '../support/intent-analysis';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-23T07:00:00.000Z');
let gemini: FakeGemini | undefined;
let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  await gemini?.close();
  fixture = undefined;
  gemini = undefined;
});

const MEMORIES = [
  'I prefer aisle seats on long trips',
  'My dentist is Dr. Park on Rue Oberkampf',
  'Ana leads the Q4 budget',
  'I am vegetarian',
];

const remember = (host: HostFixture['host']): void => rememberAll(host, MEMORIES, NOW);

const analysis = intentAnalysis({ intent: 'recall_preference' });

/** The query_context result the model read in its second request. */
interface ContextResult {
  results: { title: string; source: string; label: string }[];
  semanticSearch: { mode: string; note: string | null };
}
const contextResult = (request: ModelRequest | undefined): ContextResult =>
  lastToolResult<ContextResult>(request);

describe('semantic memory', () => {
  it('“what did I tell you about flights?” finds the aisle-seat preference, by meaning, through stored vectors', async () => {
    gemini = await startFakeGemini();
    const model = new ScriptedModel(
      call('query_context', { type: 'memories', query: 'flights', analysis }),
      say('You prefer aisle seats on long trips.'),
    );
    fixture = await openHost(model, { env: { DEPUTY_GEMINI_BASE_URL: gemini.url }, now: () => NOW });
    remember(fixture.host);
    const report = await fixture.host.context.refresh();
    expect(report.failed).toEqual([]);
    expect(fixture.host.context.stats().vectors).toBe(MEMORIES.length);
    expect(gemini.embedRequests.map((request) => request.method)).toEqual(['batchEmbedContents']);

    const done = await fixture.host.runToEnd({ prompt: 'What did I tell you about flights?' });

    expect(done.status).toBe('completed');
    const result = contextResult(model.requests[1]);
    expect(result.semanticSearch).toEqual({ mode: 'hybrid', note: null });
    expect(result.results[0]).toMatchObject({
      source: 'memory',
      title: 'I prefer aisle seats on long trips',
    });
    // No word of the question is in the memory: full-text search alone finds nothing.
    expect(storeOf(fixture.host).memories.search('flights', 5)).toEqual([]);
  });

  it('with no Gemini key, matches by words only and says so', async () => {
    const model = new ScriptedModel(
      call('query_context', { type: 'memories', query: 'aisle flights', analysis }),
      say('Aisle seats.'),
    );
    fixture = await openHost(model, { env: { GEMINI_API_KEY: '' }, now: () => NOW });
    remember(fixture.host);
    await fixture.host.context.refresh();
    expect(fixture.host.context.stats().vectors).toBe(0);

    await fixture.host.runToEnd({ prompt: 'What did I tell you about aisle flights?' });

    const result = contextResult(model.requests[1]);
    expect(result.semanticSearch).toEqual({
      mode: 'fts',
      note: 'Semantic search is off (no Gemini key): matched by words only.',
    });
  });

  it('finds an open task by meaning too: “flights” finds “Book the Lisbon plane tickets”', async () => {
    gemini = await startFakeGemini();
    const model = new ScriptedModel(
      call('query_context', { type: 'tasks', query: 'flights', analysis }),
      say('You still have to book the Lisbon plane tickets.'),
    );
    fixture = await openHost(model, { env: { DEPUTY_GEMINI_BASE_URL: gemini.url }, now: () => NOW });
    const { tasks } = storeOf(fixture.host);
    tasks.add(
      { id: 't1', description: 'Book the Lisbon plane tickets', due: null, notes: null },
      NOW.toISOString(),
    );
    tasks.add({ id: 't2', description: 'Renew the passport', due: null, notes: null }, NOW.toISOString());
    expect(await fixture.host.context.refresh()).toEqual({ observed: 0, failed: [] });
    expect(fixture.errors).toEqual([]);
    expect(fixture.host.context.stats().vectors).toBe(2);

    await fixture.host.runToEnd({ prompt: 'Anything left to do about flights?' });

    const result = contextResult(model.requests[1]);
    expect(result.semanticSearch).toEqual({ mode: 'hybrid', note: null });
    expect(result.results[0]).toMatchObject({
      source: 'tasks',
      title: 'Book the Lisbon plane tickets',
      label: 'the task “Book the Lisbon plane tickets”',
    });
  });

  it('a task added in a run is found by meaning soon after, and until then search says it matches by words only', async () => {
    gemini = await startFakeGemini();
    const model = new ScriptedModel(
      call('add_task', { description: 'Book the Lisbon plane tickets', intent: 'add it', confidence: 0.99 }),
      say('Added.'),
      call('query_context', { type: 'tasks', query: 'flights', analysis }),
      say('You still have to book the Lisbon plane tickets.'),
    );
    fixture = await openHost(model, { env: { DEPUTY_GEMINI_BASE_URL: gemini.url }, now: () => NOW });
    storeOf(fixture.host).tasks.add(
      { id: 't2', description: 'Renew the passport', due: null, notes: null },
      NOW.toISOString(),
    );
    await fixture.host.context.refresh();
    expect(fixture.host.context.stats().vectors).toBe(1);
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });

    const added = await fixture.host.runToEnd({ prompt: 'Add a task: book the Lisbon plane tickets' });
    expect(added.status).toBe('completed');
    // Not embedded yet: a search now says so, rather than claiming it searched every task by meaning.
    expect(await fixture.host.context.semanticTasks.search('flights', 5)).toMatchObject({
      mode: 'hybrid',
      note: 'The newest tasks are not indexed by meaning yet: they are matched by words only.',
    });

    // Embedded in the background soon after the run added it, with no refresh.
    await vi.waitFor(() => expect(fixture?.host.context.stats().vectors).toBe(2), { timeout: 5_000 });
    await fixture.host.runToEnd({ prompt: 'Anything left to do about flights?' });

    const result = contextResult(model.requests.at(-1));
    expect(result.semanticSearch).toEqual({ mode: 'hybrid', note: null });
    expect(result.results[0]).toMatchObject({ source: 'tasks', title: 'Book the Lisbon plane tickets' });

    // Done, it leaves the index the same way: a second later, with no refresh.
    const [task] = storeOf(fixture.host).tasks.list({ status: 'open', query: 'Lisbon', limit: 1 });
    storeOf(fixture.host).tasks.complete(task?.id ?? '', NOW.toISOString());
    await vi.waitFor(() => expect(fixture?.host.context.stats().vectors).toBe(1), { timeout: 5_000 });
    expect(fixture.errors).toEqual([]);
  });

  it('a refresh whose embedding of tasks fails logs that it was the tasks, not the memories', async () => {
    // No fake Gemini: the embedding requests go to a port nothing listens on.
    fixture = await openHost(new ScriptedModel(), { now: () => NOW });
    storeOf(fixture.host).tasks.add(
      { id: 't1', description: 'Book the Lisbon plane tickets', due: null, notes: null },
      NOW.toISOString(),
    );

    const report = await fixture.host.context.refresh();

    expect(report.failed).toEqual(['Gemini embeddings']);
    expect(fixture.errorMessages).toContain('embedding tasks failed');
    expect(fixture.errorMessages).not.toContain('embedding memories failed');
  });

  it('closing the host while vectors are still loading stops the load without an error', async () => {
    fixture = await openHost(new ScriptedModel(), { now: () => NOW });
    await fixture.stop();
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(fixture.errors).toEqual([]);
  });
});

const aboutTheUser = (request: ModelRequest | undefined): string =>
  /\[ABOUT THE USER\][\s\S]*\[END ABOUT THE USER\]/.exec(request?.systemInstruction ?? '')?.[0] ?? '';

interface SearchResult {
  memories: { text: string; snippet: string }[];
  searchMode: string;
  note: string | null;
}
const searchResult = (request: ModelRequest | undefined): SearchResult =>
  lastToolResult<SearchResult>(request);

describe('memories found by meaning (hybrid search) in search_memory and [ABOUT THE USER]', () => {
  it('a question about flights brings the aisle-seat preference, though it shares no word with it', async () => {
    gemini = await startFakeGemini();
    const model = new ScriptedModel(
      call('search_memory', { query: 'flights' }),
      say('You prefer aisle seats.'),
    );
    fixture = await openHost(model, { env: { DEPUTY_GEMINI_BASE_URL: gemini.url }, now: () => NOW });
    rememberAll(fixture.host, ['I prefer aisle seats on long trips', 'I am vegetarian'], NOW);
    await fixture.host.context.refresh();
    expect(storeOf(fixture.host).memories.search('flights', 5)).toEqual([]);

    await fixture.host.runToEnd({ prompt: 'What did I tell you about flights?' });

    // Chosen by meaning before the first turn: the block lists it, first, with no "by words only" note.
    const about = aboutTheUser(model.requests[0]);
    expect(about).toMatch(/Facts the user confirmed[^\n]*\n- I prefer aisle seats on long trips/);
    expect(about).not.toContain('words only');
    const found = searchResult(model.requests[1]);
    expect(found).toMatchObject({ searchMode: 'hybrid', note: null });
    expect(found.memories[0]).toMatchObject({
      text: 'I prefer aisle seats on long trips',
      snippet: 'I prefer aisle seats on long trips',
    });
  });

  it('a memory saved in a run is found by meaning soon after, and until then search says it matches by words only', async () => {
    gemini = await startFakeGemini();
    const model = new ScriptedModel(
      call('save_memory', {
        text: 'I prefer aisle seats on long trips',
        intent: 'remember it',
        confidence: 0.99,
      }),
      say('Saved.'),
      call('search_memory', { query: 'flights' }),
      say('You prefer aisle seats.'),
    );
    fixture = await openHost(model, { env: { DEPUTY_GEMINI_BASE_URL: gemini.url }, now: () => NOW });
    rememberAll(fixture.host, ['I am vegetarian'], NOW);
    await fixture.host.context.refresh();
    expect(fixture.host.context.stats().vectors).toBe(1);
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });

    const saved = await fixture.host.runToEnd({ prompt: 'Remember that I prefer aisle seats on long trips' });
    expect(saved.status).toBe('completed');
    // Not embedded yet: a search now says so, rather than claiming it searched everything by meaning.
    expect(await fixture.host.context.semantic.search('flights', 5)).toMatchObject({
      mode: 'hybrid',
      note: 'The newest memories are not indexed by meaning yet: they are matched by words only.',
    });

    // Embedded in the background soon after the save, with no refresh.
    await vi.waitFor(() => expect(fixture?.host.context.stats().vectors).toBe(2), { timeout: 5_000 });
    await fixture.host.runToEnd({ prompt: 'What did I tell you about flights?' });

    const found = searchResult(model.requests.at(-1));
    expect(found).toMatchObject({ searchMode: 'hybrid', note: null });
    expect(found.memories[0]).toMatchObject({ text: 'I prefer aisle seats on long trips' });
    expect(fixture.errors).toEqual([]);
  });

  it('a memory an earlier session could not embed is still said to match by words only after a restart, until it is embedded', async () => {
    gemini = await startFakeGemini();
    fixture = await openHost(new ScriptedModel(), {
      env: { DEPUTY_GEMINI_BASE_URL: gemini.url },
      now: () => NOW,
    });
    rememberAll(fixture.host, ['I am vegetarian'], NOW);
    await fixture.host.context.refresh();
    expect(fixture.host.context.stats().vectors).toBe(1);
    // Saved, then Deputy stops before it is embedded (Gemini was out of reach, or it quit within the second).
    storeOf(fixture.host).memories.add(
      {
        id: 'm-late',
        text: 'I prefer aisle seats on long trips',
        sourceRunId: null,
        origin: 'person',
        source: null,
        isConfirmed: true,
      },
      NOW.toISOString(),
    );
    await fixture.stop();

    // The next session: nothing changed in it, yet the memory has no vector.
    fixture = await openHost(new ScriptedModel(), {
      dataDir: fixture.dataDir,
      env: { DEPUTY_GEMINI_BASE_URL: gemini.url },
      now: () => NOW,
    });
    await fixture.host.context.semantic.load();
    expect(fixture.host.context.stats().vectors).toBe(1);
    expect(await fixture.host.context.semantic.search('flights', 5)).toMatchObject({
      mode: 'hybrid',
      note: 'The newest memories are not indexed by meaning yet: they are matched by words only.',
    });

    await fixture.host.context.refresh();
    expect(fixture.host.context.stats().vectors).toBe(2);
    expect(await fixture.host.context.semantic.search('flights', 5)).toMatchObject({
      mode: 'hybrid',
      note: null,
    });
    expect(fixture.errors).toEqual([]);
  });

  it('with no Gemini key, both match by words only and say so', async () => {
    const model = new ScriptedModel(call('search_memory', { query: 'aisle seats' }), say('Aisle seats.'));
    fixture = await openHost(model, { env: { GEMINI_API_KEY: '' }, now: () => NOW });
    rememberAll(fixture.host, ['I prefer aisle seats on long trips'], NOW);

    await fixture.host.runToEnd({ prompt: 'Which seats do I like?' });

    expect(aboutTheUser(model.requests[0])).toContain(
      '- I prefer aisle seats on long trips\n(Semantic search is off (no Gemini key): matched by words only. search_memory may find more.)',
    );
    expect(searchResult(model.requests[1])).toMatchObject({
      searchMode: 'words',
      note: 'Semantic search is off (no Gemini key): matched by words only.',
      memories: [expect.objectContaining({ snippet: expect.stringContaining('«seats»') })],
    });
  });
});
