import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownStatusOf } from '../../../shared/audit-status';
import { AuditStatusFilter, type AuditEntry, type AuditFilter } from '../../../shared/contract';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import type { Store } from '../../../electron/store/store';
import { FIXTURE_DATABASES, useFixtureCopies } from '../../support/fixture-copies';

/**
 * A frozen database at schema version 23 (made once by test/fixtures/make-deputy-v23-audit-statuses.ts): an
 * entry of every Status choice, six of them listed, four filed and not listed, one held in the inbox whose
 * approval was turned down after its step.
 */
const FIXTURE = join(FIXTURE_DATABASES, 'deputy-v23-audit-statuses.db');
const openFixture = useFixtureCopies();

const named = (entry: AuditEntry): string =>
  entry.kind === 'decision' ? `decision of ${entry.runId ?? ''}` : entry.actionType;

/** Every page of a filter, `limit` entries at a time, followed by its cursor. */
function pages(store: Store, filter: AuditFilter, limit: number): string[] {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = store.auditQuery.list({ ...filter, limit, ...(cursor !== undefined && { cursor }) });
    names.push(...page.entries.map(named));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return names;
}

/** What each Status choice lists on the fixture, newest first: what the viewer said of it at version 23. */
const BY_STATUS: Record<AuditStatusFilter, string[]> = {
  pending: [],
  completed: ['decision of run-1', 'list_tasks'],
  failed: ['decision of run-4', 'update_task'],
  rolled_back: [],
  turned_down: ['gmail_send', 'slack_send', 'send_email'],
  expired: ['decision of run-2', 'calendar_event_create'],
  not_done: ['add_task', 'save_memory'],
  stopped: ['decision of run-3'],
};

describe('the audit Status filter on a trail written at version 23', () => {
  it('lists under each choice what it listed before, a page at a time too, and what the viewer says of each', async () => {
    const before = readFileSync(FIXTURE);
    const store = openFixture('deputy-v23-audit-statuses.db');
    try {
      const all = store.auditQuery.list({}).entries;
      expect(all).toHaveLength(12);
      for (const status of AuditStatusFilter.options) {
        const listed = store.auditQuery.list({ status }).entries;
        expect([status, listed.map(named)]).toEqual([status, BY_STATUS[status]]);
        expect([status, listed.map((entry) => entry.id)]).toEqual([
          status,
          all.filter((entry) => shownStatusOf(entry) === status).map((entry) => entry.id),
        ]);
        expect([status, pages(store, { status }, 1)]).toEqual([status, BY_STATUS[status]]);
      }
      expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 12 });
    } finally {
      store.close();
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });

  it('combines a Status choice with the other filters and with words', () => {
    const store = openFixture('deputy-v23-audit-statuses.db');
    try {
      const names = (filter: AuditFilter): string[] => store.auditQuery.list(filter).entries.map(named);
      expect(names({ status: 'turned_down', tool: 'slack_send' })).toEqual(['slack_send']);
      expect(names({ status: 'turned_down', decision: 'require_approval' })).toEqual([
        'gmail_send',
        'send_email',
      ]);
      expect(names({ status: 'turned_down', threadId: 'thread-1' })).toEqual(BY_STATUS.turned_down);
      expect(names({ status: 'turned_down', runId: 'run-2' })).toEqual([]);
      expect(names({ status: 'expired', category: 'decision' })).toEqual(['decision of run-2']);
      expect(names({ status: 'expired', q: 'calendar' })).toEqual(['calendar_event_create']);
      expect(names({ status: 'not_done', decision: 'deny' })).toEqual(['save_memory']);
      expect(names({ status: 'stopped', runId: 'run-3' })).toEqual(['decision of run-3']);
      expect(names({ status: 'stopped', runId: 'run-2' })).toEqual([]);
      expect(names({ status: 'expired', from: '2026-11-27T09:16:00.000Z' })).toEqual(['decision of run-2']);
    } finally {
      store.close();
    }
  });

  it('notes the calls whose approval ended, filed before or after, and lists a note only while its approval says so', () => {
    const store = openFixture('deputy-v23-audit-statuses.db');
    try {
      const notes = store.db.prepare<[], string>(
        `SELECT x.ending || ' ' || e.action_id FROM audit_approval_endings x
         JOIN audit_entries e ON e.seq = x.entry_seq ORDER BY x.entry_seq`,
      );
      // The migration notes the calls filed at version 23; the held one is noted as it is filed.
      expect(notes.pluck().all()).toEqual(['rejected action-5', 'expired action-6', 'rejected action-10']);
      expect(store.auditQuery.list({ status: 'turned_down' }).entries.map(named)).toEqual(
        BY_STATUS.turned_down,
      );
      expect(notes.pluck().all()).toContain('rejected action-11');

      // Asked again after a crash: the note stays, and the call is turned down no longer, until it is again.
      const asked = store.approvals.get('action-10');
      expect(asked && store.approvals.reopen(asked)).toBe(true);
      const turnedDown = (): string[] => store.auditQuery.list({ status: 'turned_down' }).entries.map(named);
      expect(turnedDown()).toEqual(['gmail_send', 'send_email']);
      store.approvals.claim(asked?.id ?? '', 'expired', '2026-11-28T09:00:00.000Z', null, 'deputy');
      expect(turnedDown()).toEqual(['gmail_send', 'send_email']);
      expect(store.auditQuery.list({ status: 'expired' }).entries.map(named)).toEqual([
        'slack_send',
        ...BY_STATUS.expired,
      ]);
    } finally {
      store.close();
    }
  });
});
