import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { GoogleAccess, SlackAccess } from '../connections/access';
import { EMBEDDING_DIMS, type Embedder } from '../llm/gemini-embedder';
import type { Memory } from '../../shared/contract';
import type { MemoriesRepo } from '../store/memories-repo';
import type { Db } from '../store/database';
import type { Task, TasksRepo } from '../store/tasks-repo';
import { CONTEXT_FILE, openOrRebuildContextDb } from './context-db';
import { refreshContext, type RefreshReport } from './context-refresh';
import { ContactsIndex } from './contacts-index';
import { IndexWorker, WorkerUnavailable } from './index-worker-client';
import { knowledgeBlock } from './knowledge';
import { unresolvedPersonQuestion } from './intent-check';
import { directMessageWith } from './slack-dms';
import { EmbedSoon } from './embed-soon';
import type { IntentAnalysis } from '../../shared/contract/intent';
import type { TurnReach } from '../engine/intent-statement';
import { memoryCorpus, taskCorpus } from './corpora';
import { mailCorpus, RecentMail, type MailItem } from './recent-mail';
import { SemanticIndex, type Corpus } from './semantic-index';
import { UpcomingEvents } from './upcoming-events';

/** How often the index is refreshed while Deputy runs, and how soon after start or a new connection. */
export const REFRESH_EVERY_MS = 30 * 60_000;
const REFRESH_SOON_MS = 5_000;
const DAY = 86_400_000;
/** SQLite's own default: a checkpoint once the WAL holds this many pages. */
const DEFAULT_AUTOCHECKPOINT = 1_000;

export interface ContextServiceDeps {
  dataDir: string;
  google: GoogleAccess;
  slack: SlackAccess;
  isUsable: (integration: 'google' | 'slack') => boolean;
  tasks: TasksRepo;
  memories: MemoriesRepo;
  /** The person opted in to finding their recent mail by meaning (Settings → Data). */
  keepsRecentMail: () => boolean;
  /** The embedding model, or null when no Gemini key is set (search then matches words only). */
  embedder: () => Embedder | null;
  now: () => Date;
  /** The person's time zone (Settings, else the machine's): the day an all-day event is today in. */
  timezone: () => string;
  logError: (message: string, error: unknown) => void;
  /** Build the index in a worker thread (the default); false builds it on the main thread, in time slices. */
  inWorker?: boolean;
}

export interface ContextStats {
  contacts: number;
  upcomingEvents: number;
  vectors: number;
  /** Received mails kept for finding by meaning (0 unless the person opted in). */
  recentMail: number;
  bytes: number;
}

/** The context index (contacts, coming events) and what is built from it: knowledge blocks and the policy's "known". */
export class ContextService {
  readonly contacts: ContactsIndex;
  readonly upcoming: UpcomingEvents;
  readonly semantic: SemanticIndex<Memory>;
  readonly semanticTasks: SemanticIndex<Task>;
  readonly recentMail: RecentMail;
  readonly semanticMail: SemanticIndex<MailItem>;
  private readonly db: Db;
  private readonly file: string;
  private readonly worker: IndexWorker | null;
  private timer: NodeJS.Timeout | null = null;
  /** Memories and tasks are embedded a second after each change, not only at a refresh. */
  private readonly memoriesSoon: EmbedSoon;
  private readonly tasksSoon: EmbedSoon;
  private running: Promise<RefreshReport> | null = null;
  /** Stops the pass under way, and only it: clearing the index must not be undone by a pass that began before. */
  private pass: AbortController | null = null;
  private readonly stop = new AbortController();

  constructor(private readonly deps: ContextServiceDeps) {
    this.file = join(deps.dataDir, CONTEXT_FILE);
    this.db = openOrRebuildContextDb(this.file, deps.logError);
    this.worker = deps.inWorker === false ? null : new IndexWorker(this.file, deps.logError);
    if (this.worker) {
      // The worker checkpoints the WAL, off this thread; if it is gone for good, this connection does again.
      this.db.pragma('wal_autocheckpoint = 0');
      this.worker.onUnavailable = () => this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
    }
    this.contacts = new ContactsIndex(this.db);
    this.upcoming = new UpcomingEvents(this.db);
    const semantic = <T>(corpus: Corpus<T>) =>
      new SemanticIndex(this.db, corpus, deps.embedder, EMBEDDING_DIMS, this.worker);
    this.semantic = semantic(memoryCorpus(deps.memories));
    this.semanticTasks = semantic(taskCorpus(deps.tasks));
    this.recentMail = new RecentMail(this.db);
    this.semanticMail = semantic(mailCorpus(this.recentMail));
    this.memoriesSoon = new EmbedSoon(this.semantic, 'memories', this.stop.signal, deps.logError);
    this.tasksSoon = new EmbedSoon(this.semanticTasks, 'tasks', this.stop.signal, deps.logError);
    for (const unsubscribe of [
      deps.memories.onChange(() => this.memoriesSoon.changed()),
      deps.tasks.onChange(() => this.tasksSoon.changed()),
    ])
      this.stop.signal.addEventListener('abort', unsubscribe);
  }

  /** Refreshes in the background: soon, then every half hour. Timers never keep the process alive. */
  start(): void {
    this.semantic
      .load(this.stop.signal)
      .catch((error: unknown) => this.deps.logError('loading vectors failed', error));
    this.scheduleSoon();
    const every = setInterval(() => this.refreshInBackground(), REFRESH_EVERY_MS);
    every.unref();
    this.stop.signal.addEventListener('abort', () => clearInterval(every));
  }

  /** A connection changed: read the accounts again shortly (once, however many changes arrive). */
  scheduleSoon(): void {
    if (this.timer || this.stop.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refreshInBackground();
    }, REFRESH_SOON_MS);
    this.timer.unref();
  }

  /** A pass its timer starts: nothing waits for it, so a failure is logged here rather than left unhandled. */
  private refreshInBackground(): void {
    this.refresh().catch((error: unknown) =>
      this.deps.logError('refreshing the context index failed', error),
    );
  }

  /** One pass over the connected accounts; a pass already under way is joined, not doubled. */
  refresh(): Promise<RefreshReport> {
    this.running ??= this.refreshAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async refreshAll(): Promise<RefreshReport> {
    const pass = new AbortController();
    this.pass = pass;
    const signal = AbortSignal.any([this.stop.signal, pass.signal]);
    const report = await refreshContext(
      {
        ...this.deps,
        contacts: this.contacts,
        worker: this.worker,
        upcoming: this.upcoming,
        recentMail: this.recentMail,
      },
      signal,
    );
    // What is being embedded, so the log names the kind that failed.
    let what = 'memories';
    try {
      await this.memoriesSoon.sync(signal);
      what = 'tasks';
      await this.tasksSoon.sync(signal);
      what = 'recent mail';
      // Recent mail is kept while the person opts in and Gmail is connected; disconnected, it goes.
      if (this.deps.keepsRecentMail() && this.deps.isUsable('google')) await this.semanticMail.sync(signal);
      else this.forgetRecentMail();
    } catch (error) {
      if (signal.aborted) return report;
      report.failed.push('Gemini embeddings');
      this.deps.logError(`embedding ${what} failed`, error);
    } finally {
      if (this.pass === pass) this.pass = null;
    }
    return report;
  }

  /** The person dealt with them (wrote, organised or accepted a meeting): what "known" means to the policy. */
  isDealtWith(address: string): boolean {
    return this.contacts.isDealtWith(address);
  }

  /** Recent mail by meaning and by words, or null while the person has not opted in. */
  mailSearch(): SemanticIndex<MailItem> | null {
    return this.deps.keepsRecentMail() ? this.semanticMail : null;
  }

  /**
   * The opt-in changed: turned off, the kept mail and its vectors go at once; turned on, they are read soon.
   */
  recentMailChanged(): void {
    if (this.deps.keepsRecentMail()) this.scheduleSoon();
    else this.forgetRecentMail();
  }

  private forgetRecentMail(): void {
    this.db.transaction(() => {
      this.recentMail.clear();
      this.semanticMail.clear();
    })();
  }

  /** The direct-message conversation with a Slack user, or null when there is none or Slack is not connected. */
  async directMessageWith(user: string): Promise<string | null> {
    if (!this.deps.isUsable('slack')) return null;
    return directMessageWith(this.deps.slack, user);
  }

  /** The question to ask before acting when the intent names someone the index cannot resolve; null if none. */
  unresolvedPerson(analysis: IntentAnalysis, turn: TurnReach): string | null {
    try {
      return unresolvedPersonQuestion(this.contacts, analysis, turn);
    } catch (error) {
      // The index helps a run, it never stops one: unreadable, the run goes on as if no one were named.
      this.deps.logError('resolving the people of an intent failed', error);
      return null;
    }
  }

  /** The knowledge block for a run's system instruction; empty when there is nothing to say or it cannot be read. */
  knowledgeFor(prompt: string): string {
    try {
      const now = this.deps.now();
      const soon = new Date(now.getTime() + 7 * DAY).toISOString();
      return knowledgeBlock({
        prompt,
        events: this.upcoming.next(now, 5, this.deps.timezone()),
        tasksDueSoon: this.deps.tasks
          .list({ status: 'open', limit: 500 })
          .filter((task) => task.due !== null && task.due <= soon),
        contacts: this.contacts,
      });
    } catch (error) {
      // Context helps a run, it never stops one (spec 004's graceful degradation).
      this.deps.logError('building the knowledge block failed', error);
      return '';
    }
  }

  stats(): ContextStats {
    const size = (suffix: string): number => {
      try {
        return statSync(`${this.file}${suffix}`).size;
      } catch {
        return 0;
      }
    };
    return {
      contacts: this.contacts.count(),
      upcomingEvents: this.upcoming.count(),
      vectors: this.semantic.count() + this.semanticTasks.count() + this.semanticMail.count(),
      recentMail: this.recentMail.count(),
      bytes: size('') + size('-wal'),
    };
  }

  /**
   * Empties the index; the next refresh fills it again from the connected accounts. A refresh under way stops
   * and writes nothing more, as the semantic index's sync does.
   */
  clear(): void {
    this.pass?.abort();
    this.db.transaction(() => {
      this.contacts.clear();
      this.upcoming.replace([]);
      this.semantic.clear();
      this.semanticTasks.clear();
      this.recentMail.clear();
      this.semanticMail.clear();
    })();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.exec('VACUUM');
    // A merge chunk the worker already had is written after the clear above: the worker clears again after it.
    this.worker
      ?.clearContacts()
      .then(() => this.contacts.recount())
      .catch((error: unknown) => {
        if (!(error instanceof WorkerUnavailable)) this.deps.logError('clearing the contacts failed', error);
      });
  }

  /**
   * Stops refreshing and closes the index at once; the promise settles when the worker has left too (what it
   * was writing is a transaction SQLite rolls back).
   */
  close(): Promise<void> {
    this.stop.abort();
    if (this.timer) clearTimeout(this.timer);
    this.memoriesSoon.close();
    this.tasksSoon.close();
    this.db.close();
    return this.worker?.close() ?? Promise.resolve();
  }
}
