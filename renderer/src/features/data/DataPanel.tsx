import { useEffect, useId, useLayoutEffect, useRef, type FormEvent } from 'react';
import { PRUNE_DAYS } from '../../../../shared/contract';
import { FormError, whileBusy } from '../../components/FormParts';
import { formatBytes } from '../../format';
import { useData, useStores } from '../../stores';
import type { ExportProgress } from './data-store';
import {
  contextSummary,
  conversations,
  exportProgress,
  pruneQuestion,
  tasksExportProgress,
} from './data-words';
import { ExportConversations } from './ExportConversations';
import { ExportTasksAndMemories } from './ExportTasksAndMemories';
import { RecentMailOptIn } from './RecentMailOptIn';

/** Settings → Data: how much space Deputy takes, deleting old conversations, and giving space back. */
export function DataPanel() {
  const { data: store, chat } = useStores();
  const stats = useData((state) => state.stats);
  const context = useData((state) => state.context);
  const loadError = useData((state) => state.loadError);
  const pruneDays = useData((state) => state.pruneDays);
  const pruneCheck = useData((state) => state.pruneCheck);
  const busy = useData((state) => state.busy);
  const outcome = useData((state) => state.outcome);
  const exporting = useData((state) => state.exporting);
  const error = useData((state) => state.error);
  const daysId = useId();
  const daysHintId = useId();
  const storageId = useId();
  const pruneId = useId();
  const compactId = useId();
  const contextId = useId();
  const answerId = useId();
  const keepHintId = useId();
  // The confirmation's buttons go with it: the keyboard goes back to the button that asked, not to the page.
  const checkButton = useRef<HTMLButtonElement>(null);
  const exportButton = useRef<HTMLButtonElement>(null);
  const closeConfirm = (then = checkButton) => {
    store.getState().cancelPrune();
    then.current?.focus();
  };

  // The status line covers the tab's bottom edge while it says something: what has the keyboard (the button that
  // asked) is kept in view above it.
  const panel = useRef<HTMLDivElement>(null);
  const isSaying = error !== null || outcome !== null || exporting !== null;
  useLayoutEffect(() => {
    const focused = document.activeElement;
    if (isSaying && focused instanceof HTMLElement && panel.current?.contains(focused))
      focused.scrollIntoView({ block: 'nearest' });
  }, [isSaying]);

  // Conversations come and go in the chat behind this window: read the figures again every time it opens.
  useEffect(() => {
    void store.getState().load();
    void store.getState().loadContext();
  }, [store]);

  const onCheck = (event: FormEvent) => {
    event.preventDefault();
    void store.getState().checkPrune();
  };

  const onPrune = async () => {
    const deleted = await store.getState().prune();
    if (store.getState().pruneCheck === null) checkButton.current?.focus();
    // The conversation list (and the open conversation, if it went) follow at once.
    if (deleted > 0) await chat.getState().refreshAfterDeletion();
  };

  return (
    <div className="data-panel" ref={panel} data-testid="data-panel">
      <section aria-labelledby={storageId}>
        <h3 id={storageId}>Storage</h3>
        {loadError && <FormError testId="data-load-error">{loadError}</FormError>}
        {!stats && !loadError && <p role="status">Measuring…</p>}
        {stats && (
          <>
            <p>
              Deputy keeps your conversations on this computer. They take{' '}
              <strong data-testid="data-size">{formatBytes(stats.totalBytes)}</strong>.
            </p>
            <dl className="data-panel__counts" data-testid="data-counts">
              <div>
                <dt>Conversations</dt>
                <dd>{stats.counts.threads.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Messages</dt>
                <dd>{stats.counts.messages.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Actions taken</dt>
                <dd>{stats.counts.actions.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Run log entries</dt>
                <dd>{stats.counts.events.toLocaleString()}</dd>
              </div>
            </dl>
          </>
        )}
        <p className="settings-form__note">
          To delete a single conversation, use Delete next to it in the conversation list.
        </p>
      </section>

      <ExportConversations buttonRef={exportButton} />

      <ExportTasksAndMemories />

      <section aria-labelledby={pruneId}>
        <h3 id={pruneId}>Delete old conversations</h3>
        <form className="data-panel__row" onSubmit={onCheck}>
          <label htmlFor={daysId}>Delete conversations with no activity for more than</label>
          <span className="data-panel__days">
            <input
              id={daysId}
              type="number"
              required
              min={PRUNE_DAYS.min}
              max={PRUNE_DAYS.max}
              step={1}
              value={pruneDays}
              aria-describedby={daysHintId}
              data-testid="prune-days"
              onChange={(event) => store.getState().setPruneDays(event.target.value)}
            />
            <span id={daysHintId}>days</span>
          </span>
          <button
            ref={checkButton}
            type="submit"
            className="button"
            {...whileBusy(busy !== null)}
            data-testid="prune-check"
          >
            {busy === 'counting' ? 'Counting…' : 'Delete old conversations…'}
          </button>
        </form>
        {pruneCheck && (
          <div
            className={`data-panel__confirm${pruneCheck.threads === 0 ? ' data-panel__confirm--nothing' : ''}`}
            role="group"
            aria-label="Confirm deleting old conversations"
            data-testid="prune-confirm"
          >
            <p id={answerId}>{pruneQuestion(pruneCheck.threads, pruneCheck.days)}</p>
            {pruneCheck.threads > 0 && (
              // Before anything goes for good, the way to keep a copy: it takes the keyboard to the export.
              <p id={keepHintId}>
                To keep a copy,{' '}
                <button
                  type="button"
                  className="link-button"
                  data-testid="prune-export-first"
                  onClick={() => closeConfirm(exportButton)}
                >
                  export your conversations first
                </button>
                .
              </p>
            )}
            {pruneCheck.threads > 0 ? (
              <div className="data-panel__row">
                <button
                  type="button"
                  className="button button--stop"
                  autoFocus
                  aria-describedby={`${answerId} ${keepHintId}`}
                  {...whileBusy(busy !== null, () => void onPrune())}
                  data-testid="prune-confirm-delete"
                >
                  {busy === 'pruning' ? 'Deleting…' : `Delete ${conversations(pruneCheck.threads)}`}
                </button>
                <button type="button" className="button" onClick={() => closeConfirm()}>
                  Keep them
                </button>
              </div>
            ) : (
              // Nothing to delete: the answer is all there is, and OK (which says it) has the keyboard, as Delete
              // does when there is something.
              <button
                type="button"
                className="button"
                autoFocus
                aria-describedby={answerId}
                data-testid="prune-confirm-ok"
                onClick={() => closeConfirm()}
              >
                OK
              </button>
            )}
          </div>
        )}
      </section>

      <section aria-labelledby={compactId}>
        <h3 id={compactId}>Compact</h3>
        <p className="settings-form__note">
          Deleting frees space inside Deputy’s database; compacting gives that space back to your disk.
        </p>
        <button
          type="button"
          className="button"
          {...whileBusy(busy !== null, () => void store.getState().compact())}
          data-testid="data-compact"
        >
          {busy === 'compacting' ? 'Compacting…' : 'Compact database'}
        </button>
      </section>

      <section aria-labelledby={contextId}>
        <h3 id={contextId}>Context index</h3>
        <p className="settings-form__note">
          To answer about people, meetings and what you told it, Deputy keeps an index on this computer, built
          from your mail headers, calendar and Slack, and your memories and tasks. It stays on this computer
          (to find them by meaning, the text of each memory and open task is sent to Gemini once to make its
          search vector). Clearing it loses nothing: it is rebuilt from your accounts.
        </p>
        <RecentMailOptIn onChanged={() => void store.getState().loadContext()} />
        {context && (
          <p data-testid="context-size">
            {formatBytes(context.bytes)}: {contextSummary(context)}.
          </p>
        )}
        <button
          type="button"
          className="button"
          {...whileBusy(busy !== null, () => void store.getState().clearContext())}
          data-testid="context-clear"
        >
          {busy === 'clearing' ? 'Clearing…' : 'Clear the index'}
        </button>
      </section>

      {/* What the last action came to, in view at the tab's bottom edge however far the section that asked is. */}
      <div className="data-panel__status">
        {error && <FormError testId="data-error">{error}</FormError>}
        {/* How far an export has come is news, not yet a success. */}
        <p
          className={exporting ? 'status-line' : 'form-success status-line'}
          role="status"
          data-testid="data-outcome"
        >
          {exporting ? progressWords(exporting) : outcome}
        </p>
      </div>
    </div>
  );
}

const progressWords = (progress: ExportProgress): string =>
  'conversations' in progress
    ? exportProgress(progress.conversations)
    : tasksExportProgress(progress.tasks, progress.memories);
