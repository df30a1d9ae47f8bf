import {
  AUDIT_PAGE,
  type AuditEntry,
  type CommandOutput,
  type CommandParsedInput,
  DeputyError,
  notFound,
  quoteId,
  type RunResponse,
} from '../../shared/contract';
import { verifyAuditChain } from '../store/audit-chain';
import { listToolInvocations } from '../store/tool-invocations';
import type { Store } from '../store/store';
import { redactedJson } from '../vault/redactor';
import { toCsvLines, CSV_HEADER } from './audit-export';
import type { StoredApproval } from '../store/approvals-repo';
import { undoEntry, type UndoDeps } from './audit-undo';
import { approveUndo, endHeldUndo } from './undo-approval';
import { reconcileUndos } from './undo-run';

/** How many entries one export page holds: a page is read, written out, and the next one waits its turn. */
const EXPORT_PAGE = 500;

/** The audit trail's channels: query, read, verify assumptions, undo, export, check the chain. */
export class AuditDesk {
  /** Undos cut short by a crash, looked for at start-up; settled when this resolves. */
  reconciling: Promise<void> = Promise.resolve();

  constructor(private readonly deps: UndoDeps) {}

  private get store(): Store {
    return this.deps.store;
  }

  list(input: CommandParsedInput<'audit.list'>): CommandOutput<'audit.list'> {
    return this.store.auditQuery.list(input);
  }

  get(input: CommandParsedInput<'audit.get'>): CommandOutput<'audit.get'> {
    const entry = this.entry(input.id);
    const related = entry.runId
      ? this.store.auditQuery
          .list({ runId: entry.runId, limit: 100 })
          .entries.filter((e) => e.id !== entry.id)
      : [];
    return { entry, related };
  }

  assumptions(input: CommandParsedInput<'audit.assumptions'>): CommandOutput<'audit.assumptions'> {
    return { assumptions: this.entry(input.id).assumptions };
  }

  /**
   * The person confirms or corrects an assumption. A correction they ask to keep becomes a memory in their own
   * words (confirmed: they wrote it), so the next run knows it.
   */
  verifyAssumption(
    input: CommandParsedInput<'audit.verifyAssumption'>,
  ): CommandOutput<'audit.verifyAssumption'> {
    const entry = this.entry(input.id);
    const now = this.deps.now().toISOString();
    return this.store.transaction(() => {
      const assumption = this.store.auditEdits.verifyAssumption(
        entry.id,
        input.assumptionId,
        { verified: input.verified, correction: input.correction ?? null },
        now,
      );
      if (!assumption) {
        throw new DeputyError(
          'not_found',
          `This entry has no assumption with the id ${quoteId(input.assumptionId)}.`,
        );
      }
      let memoryId: string | null = null;
      if (input.remember && input.correction) {
        memoryId = this.deps.newId();
        this.store.memories.add(
          {
            id: memoryId,
            text: input.correction,
            sourceRunId: entry.runId,
            origin: 'person',
            source: null,
            isConfirmed: true,
          },
          now,
        );
      }
      return { assumption, memoryId };
    });
  }

  undo(input: CommandParsedInput<'audit.undo'>): Promise<CommandOutput<'audit.undo'>> {
    return undoEntry(this.deps, input);
  }

  /** The person approved an undo held for approval: it runs now. */
  approveUndo(approval: StoredApproval): Promise<RunResponse> {
    return approveUndo(this.deps, approval);
  }

  /** An undo held for approval was turned down or expired. */
  endUndo(approval: StoredApproval, message: string): RunResponse {
    return endHeldUndo(this.deps, approval, message);
  }

  reconcileUndos(): void {
    this.reconciling = reconcileUndos(this.deps).catch((error: unknown) =>
      this.deps.logError('could not reconcile undos after a restart', error),
    );
  }

  /** One page of an export (the HTTP route streams every page; the viewer gathers them). */
  exportPage(input: CommandParsedInput<'audit.export'>): CommandOutput<'audit.export'> {
    const { format, cursor, ...filter } = input;
    const rows = this.store.auditQuery.page({ ...filter, ...(cursor && { cursor }) }, EXPORT_PAGE + 1);
    const page = this.store.auditQuery.withAssumptions(rows.slice(0, EXPORT_PAGE));
    const lines = format === 'csv' ? toCsvLines(page) : page.map((entry) => redactedJson(entry));
    const header = format === 'csv' && cursor === undefined ? [CSV_HEADER] : [];
    const last = page.at(-1);
    return {
      text: [...header, ...lines].map((line) => `${line}\n`).join(''),
      nextCursor: rows.length > EXPORT_PAGE && last ? String(last.seq) : null,
    };
  }

  /** Spec 002's DecisionLog, newest first. */
  decisions(input: CommandParsedInput<'audit.decisions'>): CommandOutput<'audit.decisions'> {
    const { limit = AUDIT_PAGE.default, ...filter } = input;
    return paged(
      this.store.decisions.list(filter, limit + 1),
      limit,
      (row) => row.seq,
      (decisions, nextCursor) => ({
        decisions,
        nextCursor,
      }),
    );
  }

  /** Spec 002's ToolInvocationLog, newest first. */
  toolInvocations(
    input: CommandParsedInput<'audit.toolInvocations'>,
  ): CommandOutput<'audit.toolInvocations'> {
    const { limit = AUDIT_PAGE.default, ...filter } = input;
    return paged(
      listToolInvocations(this.store.db, this.store.auditInbox, filter, limit + 1),
      limit,
      (row) => row.sequence,
      (invocations, nextCursor) => ({ invocations, nextCursor }),
    );
  }

  verifyChain(): Promise<CommandOutput<'audit.verifyChain'>> {
    return verifyAuditChain(this.store.db);
  }

  private entry(id: string): AuditEntry {
    const entry = this.store.auditQuery.get(id);
    if (!entry) throw notFound('audit entry', id);
    return entry;
  }
}

/** One page of `limit` from `limit + 1` rows read, and the cursor of the next page when there is one. */
function paged<Row, Output>(
  rows: Row[],
  limit: number,
  seqOf: (row: Row) => number,
  shape: (page: Row[], nextCursor: string | null) => Output,
): Output {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return shape(page, rows.length > limit && last ? String(seqOf(last)) : null);
}
