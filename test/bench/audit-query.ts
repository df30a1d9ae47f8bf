import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditFilter } from '../../shared/contract';
import { Store } from '../../electron/store/store';
import { listToolInvocations } from '../../electron/store/tool-invocations';
import { summarize } from './stats';

type Summary = ReturnType<typeof summarize>;

const TOOLS = [
  ['list_tasks', 'query', 'low'],
  ['add_task', 'create', 'low'],
  ['update_task', 'update', 'low'],
  ['mark_task_complete', 'update', 'low'],
  ['delete_task', 'delete', 'medium'],
  ['gmail_search', 'query', 'low'],
  ['gmail_thread_read', 'query', 'low'],
  ['gmail_draft_create', 'draft', 'medium'],
  ['gmail_send', 'external', 'high'],
  ['calendar_search', 'query', 'low'],
  ['calendar_event_create', 'create', 'medium'],
  ['calendar_event_update', 'update', 'medium'],
  ['slack_read', 'query', 'low'],
  ['slack_send', 'external', 'high'],
  ['save_memory', 'create', 'low'],
] as const;
const WORDS =
  'budget review passport invoice quarterly numbers meeting alex ana sam friday monday report draft reply launch roadmap hiring offsite travel dentist renewal contract vendor lunch standup retro design customer renewal follow'.split(
    ' ',
  );
const THREADS = 20_000;
const START = Date.parse('2025-11-23T00:00:00.000Z');
/** One entry every 30 s: a million entries span about a year. */
const STEP_MS = 30_000;

/** A small deterministic generator, so every bench run seeds the same rows. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export interface AuditBench {
  entries: number;
  seedMs: number;
  page: Summary;
  pageByFilter: Record<string, Summary>;
  search: Summary;
  /** Spec 002's logs and the start-up look for undos cut short, on the same rows. */
  logs: Record<string, Summary>;
}

/**
 * Seeds `count` audit entries (and indexes them for search) into a fresh database and times the viewer's reads:
 * a filtered page of 50 (each filter, and the next page by cursor) and a full-text query, each p95 over `runs`.
 */
export function benchAuditQueries(count: number, runs: number): AuditBench {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-audit-bench-'));
  const store = Store.open(join(dir, 'deputy.db'));
  try {
    const seedStart = performance.now();
    seedAuditTrail(store, count);
    // The entries' words go into the search index after the fact (migration 16): in the app a little at a time
    // as entries are written; here all at once, as part of the seeding, so the searches below find them indexed.
    store.auditSearch.catchUpAll();
    const seedMs = performance.now() - seedStart;
    const random = generator(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const day = (offsetDays: number): { from: string; to: string } => {
      const from = START + offsetDays * 86_400_000;
      return { from: new Date(from).toISOString(), to: new Date(from + 86_400_000).toISOString() };
    };
    const span = Math.floor((count * STEP_MS) / 86_400_000);
    const filters: Record<string, () => AuditFilter & { cursor?: string }> = {
      none: () => ({}),
      tool: () => ({ tool: pick(TOOLS)[0] }),
      status: () => ({ status: pick(['failed', 'rolled_back', 'pending'] as const) }),
      // Stored as failed, each found among every failed entry until migration 24. The seed has few (a blocked call
      // that failed is "Not done") or none: the case where a page had to read all 10,000 failed entries.
      'rare status': () => ({ status: pick(['turned_down', 'expired', 'not_done', 'stopped'] as const) }),
      thread: () => ({ threadId: `thread-${Math.floor(random() * THREADS)}` }),
      run: () => ({ runId: `run-${Math.floor(random() * (count / 3))}` }),
      decision: () => ({ decision: pick(['deny', 'require_approval']) }),
      'category+status': () => ({ category: pick(TOOLS)[1], status: 'failed' }),
      'tool+status': () => ({ tool: pick(TOOLS)[0], status: pick(['failed', 'completed'] as const) }),
      'tool+decision': () => ({ tool: pick(TOOLS)[0], decision: pick(['allow', 'require_approval']) }),
      'risk+category': () => ({ risk: 'high', category: 'external' }),
      'category+decision': () => ({
        category: pick(TOOLS)[1],
        decision: pick(['allow', 'require_approval', 'deny']),
      }),
      'one day': () => day(Math.floor(random() * span)),
      'next page': () => ({ cursor: String(Math.floor(random() * count) + 100) }),
    };
    const pageByFilter: Record<string, Summary> = {};
    const all: number[] = [];
    for (const [name, make] of Object.entries(filters)) {
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const filter = make();
        const start = performance.now();
        store.auditQuery.list({ ...filter, limit: 50 });
        times.push(performance.now() - start);
      }
      pageByFilter[name] = summarize(times);
      all.push(...times);
    }
    const searches: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const words = random() < 0.5 ? pick(WORDS) : `${pick(WORDS)} ${pick(WORDS).slice(0, 4)}`;
      const start = performance.now();
      store.auditQuery.list({ q: words, limit: 50 });
      searches.push(performance.now() - start);
    }
    const runsSeeded = Math.floor(count / 3);
    const logReads: Record<string, () => unknown> = {
      'tool invocations, newest': () => listToolInvocations(store.db, store.auditInbox, {}, 51),
      'tool invocations of a run': () =>
        listToolInvocations(
          store.db,
          store.auditInbox,
          { runId: `run-${Math.floor(random() * runsSeeded)}` },
          51,
        ),
      'tool invocations of a tool': () =>
        listToolInvocations(store.db, store.auditInbox, { tool: pick(TOOLS)[0] }, 51),
      'decisions, newest': () => store.decisions.list({}, 51),
      'decision of a run': () =>
        store.decisions.list({ runId: `run-${Math.floor(random() * runsSeeded)}` }, 51),
      'pending undos (start-up)': () => store.undoLedger.pendingEntries(),
    };
    const logs: Record<string, Summary> = {};
    for (const [name, read] of Object.entries(logReads)) {
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const start = performance.now();
        read();
        times.push(performance.now() - start);
      }
      logs[name] = summarize(times);
    }
    return {
      entries: count,
      seedMs,
      page: summarize(all),
      pageByFilter,
      search: summarize(searches),
      logs,
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows shaped as the engine writes them, inserted straight in large transactions (the bench is of reads). */
/**
 * Writes `count` audit entries as a year of use would have left them (15 tools, 20,000 threads, one entry
 * every 30 s, varied words), with their runs' decisions, in transactions of 20,000.
 */
export function seedAuditTrail(store: Store, count: number): void {
  const random = generator(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const insert = store.db.prepare(
    `INSERT INTO audit_entries (id, kind, action_id, thread_id, run_id, agent_id, action_type, action_category,
       risk, intent, reasoning, confidence, target, input_json, output_json, status, decision, rule, reason,
       approved_by, is_reversible, created_at, updated_at)
     VALUES (?, 'tool_call', ?, ?, ?, 'deputy', ?, ?, ?, ?, ?, 0.9, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  );
  const insertDecision = store.db.prepare(
    `INSERT INTO decisions (run_id, agent_id, decision, outcome, model, tokens_used, created_at)
     VALUES (?, 'deputy', 'INVOKE_TOOL', 'SUCCESS:TASK_COMPLETED', 'gemini-2.5-flash', 1200, ?)`,
  );
  const batch = 20_000;
  for (let at = 0; at < count; at += batch) {
    store.transaction(() => {
      for (let i = at; i < Math.min(count, at + batch); i += 1) {
        const [tool, category, risk] = pick(TOOLS);
        const roll = random();
        const status =
          roll < 0.01 ? 'failed' : roll < 0.015 ? 'rolled_back' : roll < 0.02 ? 'pending' : 'completed';
        const decisionRoll = random();
        const decision =
          category === 'query'
            ? 'allow'
            : decisionRoll < 0.02
              ? 'deny'
              : decisionRoll < 0.3
                ? 'require_approval'
                : 'allow';
        const subject = `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`;
        const time = new Date(START + i * STEP_MS).toISOString();
        insert.run(
          `entry-${i}`,
          `action-${i}`,
          `thread-${Math.floor(random() * THREADS)}`,
          `run-${Math.floor(i / 3)}`,
          tool,
          category,
          risk,
          `Handle the ${subject}`,
          `The person asked about the ${subject}.`,
          `${pick(WORDS)}@example.com`,
          JSON.stringify({ subject, body: `About the ${subject} and the ${pick(WORDS)}.` }),
          JSON.stringify({ id: `id-${i}`, ok: true }),
          status,
          decision,
          decision === 'allow' ? 'autonomy:task.create' : 'trust:supervised',
          'Your setting.',
          decision === 'require_approval' ? 'person' : 'autonomy',
          time,
          time,
        );
        // One decision per run (a run is three entries here).
        if (i % 3 === 2) insertDecision.run(`run-${Math.floor(i / 3)}`, time);
      }
    });
  }
}
