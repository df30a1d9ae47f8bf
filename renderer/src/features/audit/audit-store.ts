import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  type AuditChainOutput,
  type AuditEntry,
  type AuditFilter,
  type CommandInput,
  type DeputyClient,
} from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import { readThreadTitle } from '../../api/thread-title';
import {
  decideUndo,
  isUndoUnderWay,
  requestUndo,
  UNDO_UNDER_WAY,
  type UndoNotice,
  type UndoPrompt,
} from '../undo/undo-flow';

export type AuditFilters = Omit<AuditFilter, 'from' | 'to'> & { from?: string; to?: string };

/** What became of the last thing the person did in the viewer, said in its status line. */
export type AuditNotice = UndoNotice;
export type { UndoPrompt };

export interface AuditState {
  filters: AuditFilters;
  entries: AuditEntry[];
  nextCursor: string | null;
  isLoading: boolean;
  listError: string | null;
  selectedId: string | null;
  detail: { entry: AuditEntry; related: AuditEntry[] } | null;
  detailError: string | null;
  chain: AuditChainOutput | null;
  isChecking: boolean;
  undoPrompt: UndoPrompt | null;
  /** The last undo's or integrity check's outcome in words, or why it failed, said beside Undo. */
  notice: AuditNotice | null;
  /** What became of a verdict on an assumption beyond what its verdict line says, said with that assumption. */
  verdictNotice: (AuditNotice & { assumptionId: string }) | null;
  /** The title of the conversation the list is limited to, once found. */
  scopeTitle: string | null;
}

export interface AuditActions {
  setFilter<K extends keyof AuditFilters>(key: K, value: AuditFilters[K] | ''): Promise<void>;
  reload(): Promise<void>;
  /** Reads the first page and the open entry again (after a reconnect), keeping what the detail says beside Undo. */
  readAgain(): Promise<void>;
  /**
   * Looks the title of the conversation the list is limited to up again: no event says a conversation was renamed,
   * so the viewer asks when it comes back into view.
   */
  refreshScopeTitle(): Promise<void>;
  loadMore(): Promise<void>;
  select(id: string): Promise<void>;
  verify(
    assumptionId: string,
    verdict: { verified: boolean; correction?: string; remember?: boolean },
  ): Promise<void>;
  /** Asks the person first, in `question`, before an undo that reaches outside Deputy (or says one is under way). */
  askUndo(question: string): void;
  /** Asks for the undo; `force` undoes over a later change (it then waits for approval). */
  undo(force?: boolean): Promise<void>;
  /** Decides the approval an undo waits for, as the approvals list would. */
  decideUndo(decision: 'approve' | 'reject'): Promise<void>;
  cancelUndo(): void;
  checkIntegrity(): Promise<void>;
  /**
   * The filtered export, a page at a time, as the host streams it: the viewer writes each page to the file
   * before asking for the next, so the whole export is never held in memory.
   */
  exportPages(format: 'jsonl' | 'csv'): AsyncGenerator<string>;
}

export type AuditStore = StoreApi<AuditState & AuditActions>;

const PAGE = 100;

/** A date typed in the filter bar (yyyy-mm-dd) as the instant the API takes: the whole day, in local time. */
function instant(day: string | undefined, edge: 'from' | 'to'): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${edge === 'from' ? '00:00:00' : '23:59:59.999'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function listInput(filters: AuditFilters, cursor?: string): NonNullable<CommandInput<'audit.list'>> {
  const { from, to, ...rest } = filters;
  const clean = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined && value !== ''),
  );
  const fromInstant = instant(from, 'from');
  const toInstant = instant(to, 'to');
  return {
    ...clean,
    ...(fromInstant && { from: fromInstant }),
    ...(toInstant && { to: toInstant }),
    limit: PAGE,
    ...(cursor && { cursor }),
  };
}

/**
 * Whether the open entry may be among a list's results: it is in the pages loaded, or it is older than the last
 * of them and more pages follow (the list is newest first). An entry not yet read is given the benefit.
 */
export function mayBeListed(
  shown: AuditEntry | undefined,
  entries: readonly AuditEntry[],
  hasMore: boolean,
): boolean {
  if (!shown) return true;
  if (entries.some((entry) => entry.id === shown.id)) return true;
  const last = entries.at(-1);
  return hasMore && last !== undefined && shown.seq < last.seq;
}

export function createAuditStore(client: DeputyClient): AuditStore {
  return createStore<AuditState & AuditActions>()((set, get) => {
    /** Replaces an entry wherever the screen shows it, after an undo or a verification changed it. */
    const refresh = (changed: AuditEntry) =>
      set((state) => ({
        entries: state.entries.map((entry) => (entry.id === changed.id ? changed : entry)),
        detail:
          state.detail?.entry.id === changed.id
            ? { ...state.detail, entry: changed }
            : state.detail && {
                ...state.detail,
                related: state.detail.related.map((entry) => (entry.id === changed.id ? changed : entry)),
              },
      }));
    // Only the newest request's answer lands: typing in the search box must not show an older page last.
    let listRequest = 0;
    // The same for the chip's title: a lookup made before a rename must not answer last with the old title.
    let titleRequest = 0;

    const findScopeTitle = async (threadId: string): Promise<void> => {
      const request = ++titleRequest;
      try {
        const title = await readThreadTitle(client, threadId);
        if (request === titleRequest && get().filters.threadId === threadId) set({ scopeTitle: title });
      } catch {
        // The chip keeps the title it had, or the id's tail.
      }
    };

    /** The first page for the filters; answers whether it landed (a newer request's answer may have replaced it). */
    const load = async (): Promise<boolean> => {
      const request = ++listRequest;
      set({ isLoading: true, listError: null });
      try {
        const page = await client.invoke('audit.list', listInput(get().filters));
        if (request !== listRequest) return false;
        set({ entries: page.entries, nextCursor: page.nextCursor, isLoading: false });
        return true;
      } catch (error) {
        if (request === listRequest) set({ listError: toClientError(error).message, isLoading: false });
        return false;
      }
    };

    const readDetail = async (id: string): Promise<void> => {
      try {
        const detail = await client.invoke('audit.get', { id });
        if (get().selectedId === id) set({ detail, selectedId: detail.entry.id, detailError: null });
      } catch (error) {
        if (get().selectedId === id) set({ detail: null, detailError: toClientError(error).message });
      }
    };

    return {
      filters: {},
      entries: [],
      nextCursor: null,
      // Until the first page arrives: the table says "loading", never "nothing yet".
      isLoading: true,
      listError: null,
      selectedId: null,
      detail: null,
      detailError: null,
      chain: null,
      isChecking: false,
      undoPrompt: null,
      notice: null,
      verdictNotice: null,
      scopeTitle: null,

      async setFilter(key, value) {
        const isCleared = value === '' || value === undefined;
        const filters = Object.fromEntries(
          Object.entries({ ...get().filters, [key]: value }).filter(([name]) => !(isCleared && name === key)),
        ) as AuditFilters;
        set({ filters, ...(key === 'threadId' && { scopeTitle: null }) });
        if (key === 'threadId' && !isCleared) void findScopeTitle(String(value));
        if (!(await load())) return;
        // The open entry is no longer among the results: its detail goes, rather than show what the list does not.
        const { detail, entries, nextCursor } = get();
        if (!mayBeListed(detail?.entry, entries, nextCursor !== null))
          set({
            selectedId: null,
            detail: null,
            detailError: null,
            undoPrompt: null,
            notice: null,
            verdictNotice: null,
          });
      },

      async reload() {
        await load();
      },

      async readAgain() {
        const { selectedId } = get();
        await Promise.all([load(), selectedId !== null && readDetail(selectedId)]);
      },

      async refreshScopeTitle() {
        const { threadId } = get().filters;
        if (threadId) await findScopeTitle(threadId);
      },

      async loadMore() {
        const { nextCursor, isLoading } = get();
        if (!nextCursor || isLoading) return;
        const request = ++listRequest;
        set({ isLoading: true });
        try {
          const page = await client.invoke('audit.list', listInput(get().filters, nextCursor));
          if (request !== listRequest) return;
          set((state) => ({
            entries: [...state.entries, ...page.entries],
            nextCursor: page.nextCursor,
            isLoading: false,
          }));
        } catch (error) {
          if (request === listRequest) set({ listError: toClientError(error).message, isLoading: false });
        }
      },

      async select(id) {
        set({ selectedId: id, detailError: null, undoPrompt: null, notice: null, verdictNotice: null });
        await readDetail(id);
      },

      async verify(assumptionId, verdict) {
        const entry = get().detail?.entry;
        if (!entry) return;
        try {
          const result = await client.invoke('audit.verifyAssumption', {
            id: entry.id,
            assumptionId,
            verified: verdict.verified,
            ...(verdict.correction && { correction: verdict.correction }),
            ...(verdict.remember && { remember: true }),
          });
          refresh({
            ...entry,
            assumptions: entry.assumptions.map((a) => (a.id === assumptionId ? result.assumption : a)),
          });
          // The verdict line says it was confirmed or corrected; only a correction kept as a memory needs words more.
          set({
            verdictNotice: result.memoryId
              ? { assumptionId, text: 'Deputy will remember the correction.', isError: false }
              : null,
          });
        } catch (error) {
          set({ verdictNotice: { assumptionId, text: toClientError(error).message, isError: true } });
        }
      },

      askUndo(question) {
        const detail = get().detail;
        if (!detail) return;
        const { entry, related } = detail;
        // An undo of it already being made (asked for in another window): said first, not after a yes it refuses.
        if (isUndoUnderWay(entry, related)) {
          set({ undoPrompt: null, notice: { text: UNDO_UNDER_WAY, isError: false } });
          return;
        }
        set({
          undoPrompt: { entryId: entry.id, kind: 'confirm', reason: question, approvalId: null },
          notice: null,
        });
      },

      async undo(force = false) {
        const entry = get().detail?.entry;
        if (!entry) return;
        const answer = await requestUndo(client, entry.id, force);
        if (answer.kind === 'asks') {
          set({ undoPrompt: answer.prompt, notice: null });
          if (answer.undo) refresh(answer.undo);
          return;
        }
        if (answer.kind === 'failed') {
          set({ undoPrompt: null, notice: { text: answer.message, isError: true } });
          return;
        }
        refresh(answer.original);
        const undone = answer.undo;
        if (undone) set((state) => ({ entries: [undone, ...state.entries] }));
        set({ undoPrompt: null, notice: { text: answer.message, isError: false } });
      },

      async decideUndo(decision) {
        const prompt = get().undoPrompt;
        if (!prompt?.approvalId) return;
        const notice = await decideUndo(client, prompt.approvalId, decision);
        set({ undoPrompt: null, notice });
        await Promise.all([get().reload(), get().select(prompt.entryId)]);
        // Opening the entry again clears the notice: say what became of the undo after it.
        set({ notice });
      },

      cancelUndo() {
        set({ undoPrompt: null });
      },

      async checkIntegrity() {
        set({ isChecking: true, chain: null });
        try {
          set({ chain: await client.invoke('audit.verifyChain', {}), isChecking: false });
        } catch (error) {
          set({ isChecking: false, notice: { text: toClientError(error).message, isError: true } });
        }
      },

      async *exportPages(format) {
        const { limit: _limit, cursor: _cursor, ...filter } = listInput(get().filters);
        let cursor: string | undefined;
        for (;;) {
          const page = await client.invoke('audit.export', { ...filter, format, ...(cursor && { cursor }) });
          yield page.text;
          if (page.nextCursor === null) return;
          cursor = page.nextCursor;
        }
      },
    };
  });
}
