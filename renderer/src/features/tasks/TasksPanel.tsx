import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { isFocusLost } from '../../focus';
import { useModalDialog } from '../../use-modal-dialog';
import { tabForKey } from '../../tab-keys';
import type { Approval, TaskItem } from '../../../../shared/contract';
import { TASKS_THREAD_ID } from '../../../../shared/tasks-thread';
import { useApprovals, useStores, useTasks } from '../../stores';
import { TaskForm, type TaskValues } from './TaskForm';
import { dueWords } from './task-words';

/** While the panel is open, the list is read again this often: a task the chat adds shows up by itself. */
const REFRESH_MS = 3_000;

const VIEWS = ['open', 'done'] as const;
type View = (typeof VIEWS)[number];

function TaskRow({ task, onEdit }: { task: TaskItem; onEdit: () => void }) {
  const { tasks: store } = useStores();
  // A change to this task already waits for the person: asking again would queue a second approval.
  const isWaiting = useApprovals((state) =>
    state.pending.some((approval) => approval.threadId === TASKS_THREAD_ID && approval.args.id === task.id),
  );
  const isChanging = useTasks((state) => state.isChanging) || isWaiting;
  const due = dueWords(task);
  const change = store.getState().change;
  return (
    <li className={`task-row task-row--${task.status}`} data-testid="task-row" data-task-id={task.id}>
      {task.status === 'open' ? (
        <input
          type="checkbox"
          className="task-row__check"
          aria-label={`Mark “${task.description}” done`}
          // An open task's box stays clear until the list says it is done: a change that waits for approval
          // must not look made.
          checked={false}
          disabled={isChanging}
          onChange={() =>
            void change({ tool: 'mark_task_complete', args: { id: task.id } }, `Done: “${task.description}”.`)
          }
        />
      ) : (
        <span className="task-row__check" aria-hidden="true">
          ✓
        </span>
      )}
      <div className="task-row__text">
        <span className="task-row__description">{task.description}</span>
        {isWaiting && (
          <span className="task-row__meta" data-testid="task-waiting">
            A change waits for your approval, below.
          </span>
        )}
        {(due || task.notes) && (
          <span className="task-row__meta">{[due, task.notes].filter(Boolean).join(' · ')}</span>
        )}
      </div>
      <div className="task-row__actions">
        {task.status === 'open' && (
          <button
            type="button"
            className="button button--quiet"
            onClick={onEdit}
            disabled={isWaiting}
            data-testid="task-edit"
            aria-label={`Edit “${task.description}”`}
          >
            Edit
          </button>
        )}
        <button
          type="button"
          className="button button--quiet"
          disabled={isChanging}
          aria-label={`Delete “${task.description}”`}
          onClick={() =>
            void change({ tool: 'delete_task', args: { id: task.id } }, `Deleted “${task.description}”.`)
          }
        >
          Delete
        </button>
      </div>
    </li>
  );
}

/** Changes of the panel that wait for the person: decided here as in the Approvals window. */
function WaitingChanges() {
  const { approvals, tasks } = useStores();
  const pending = useApprovals((state) => state.pending);
  const waiting = useMemo(
    () => pending.filter((approval) => approval.threadId === TASKS_THREAD_ID),
    [pending],
  );
  if (waiting.length === 0) return null;
  const decide = async (approval: Approval, decision: 'approve' | 'reject') => {
    const isDecided = await approvals.getState().decide({ approvalId: approval.id, decision });
    await tasks.getState().load();
    const title = approval.preview.title;
    tasks.getState().tell(
      isDecided
        ? { tone: 'info', text: decision === 'approve' ? `Approved: ${title}.` : `Turned down: ${title}.` }
        : {
            tone: 'error',
            text: approvals.getState().activity[approval.id]?.error ?? 'It could not be decided.',
          },
    );
  };
  return (
    <ul className="pending-list" aria-label="Changes waiting for your approval" data-testid="task-approvals">
      {waiting.map((approval) => (
        <li key={approval.id} className="pending-item" data-testid="task-approval">
          <p className="pending-item__title">
            <strong>{approval.preview.title}</strong>
          </p>
          <p className="pending-item__meta">{approval.reason}</p>
          <div className="pending-item__actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => void decide(approval, 'approve')}
            >
              Approve
            </button>
            <button type="button" className="button" onClick={() => void decide(approval, 'reject')}>
              Reject
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The person's local task list: open and done, added, edited, completed and deleted by the chat's own tools. */
export function TasksPanel({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const { tasks: store } = useStores();
  const tasks = useTasks((state) => state.tasks);
  const hasLoaded = useTasks((state) => state.hasLoaded);
  const loadError = useTasks((state) => state.loadError);
  const notice = useTasks((state) => state.notice);
  const isChanging = useTasks((state) => state.isChanging);
  const [view, setView] = useState<View>('open');
  const [editing, setEditing] = useState<string | null>(null);
  const dialogRef = useModalDialog(isOpen);
  const titleId = useId();
  const tabIds = useId();

  useEffect(() => {
    if (!isOpen) return;
    void store.getState().load();
    const timer = setInterval(() => void store.getState().load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [isOpen, store]);

  // An edit closed (saved or cancelled): the keyboard goes back to the task's Edit, where the form was.
  const lastEdited = useRef<string | null>(null);
  useEffect(() => {
    const id = lastEdited.current;
    lastEdited.current = editing;
    if (editing !== null || id === null || !isFocusLost()) return;
    dialogRef.current
      ?.querySelector<HTMLElement>(`[data-task-id="${id}"] [data-testid="task-edit"]`)
      ?.focus();
  }, [editing, dialogRef]);
  // A change made from a row or a waiting change decided takes its button away, or turns it off while it runs,
  // and the keyboard fell to the page: it goes on at what came of it.
  const noticeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (notice && editing === null && isFocusLost()) noticeRef.current?.focus();
  }, [notice, editing]);

  const shown = tasks.filter((task) => task.status === view);
  const counts = { open: tasks.filter((task) => task.status === 'open').length, done: tasks.length };
  counts.done -= counts.open;

  const add = (values: TaskValues) =>
    store.getState().change(
      {
        tool: 'add_task',
        args: {
          description: values.description,
          ...(values.due && { due: values.due }),
          ...(values.notes && { notes: values.notes }),
        },
      },
      `Added “${values.description}”.`,
    );
  const edit = (task: TaskItem) => async (values: TaskValues) => {
    const isTaken = await store.getState().change(
      {
        tool: 'update_task',
        args: { id: task.id, description: values.description, due: values.due, notes: values.notes },
      },
      `Saved “${values.description}”.`,
    );
    if (isTaken) setEditing(null);
    return isTaken;
  };

  return (
    <dialog
      ref={dialogRef}
      className="tasks-panel"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="tasks-panel"
    >
      <h2 id={titleId}>Tasks</h2>
      {isOpen && (
        <>
          <TaskForm isBusy={isChanging} onSubmit={add} />
          {notice && (
            <p
              ref={noticeRef}
              tabIndex={-1}
              className={notice.tone === 'error' ? 'form-error' : 'form-success'}
              role={notice.tone === 'error' ? 'alert' : 'status'}
              data-testid="tasks-notice"
            >
              {notice.text}
            </p>
          )}
          <WaitingChanges />
          <div
            className="tabs"
            role="tablist"
            aria-label="Which tasks"
            onKeyDown={(event) => {
              const next = tabForKey(VIEWS, view, event.key);
              if (!next) return;
              event.preventDefault();
              setView(next);
              document.getElementById(`${tabIds}-${next}`)?.focus();
            }}
          >
            {VIEWS.map((item) => (
              <button
                key={item}
                type="button"
                role="tab"
                id={`${tabIds}-${item}`}
                aria-selected={view === item}
                // One tab stop for the row: the arrows move between the tabs, as in Settings.
                tabIndex={view === item ? 0 : -1}
                aria-controls={`${tabIds}-list`}
                className="tabs__tab"
                data-testid={`tasks-tab-${item}`}
                onClick={() => setView(item)}
              >
                {item === 'open' ? `Open (${counts.open})` : `Done (${counts.done})`}
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`${tabIds}-list`}
            aria-labelledby={`${tabIds}-${view}`}
            className="tasks-panel__list"
          >
            {loadError && (
              <p className="form-error" role="alert">
                {loadError}
              </p>
            )}
            {!hasLoaded && !loadError && <p role="status">Loading your tasks…</p>}
            {hasLoaded && shown.length === 0 && (
              <p className="settings-form__note" data-testid="tasks-empty">
                {view === 'open'
                  ? 'Nothing to do. Add a task above, or ask Deputy in the chat.'
                  : 'No task done yet.'}
              </p>
            )}
            <ul className="task-list">
              {shown.map((task) =>
                editing === task.id ? (
                  <li key={task.id} className="task-row task-row--editing">
                    <TaskForm
                      task={task}
                      isBusy={isChanging}
                      onSubmit={edit(task)}
                      onCancel={() => setEditing(null)}
                    />
                  </li>
                ) : (
                  <TaskRow key={task.id} task={task} onEdit={() => setEditing(task.id)} />
                ),
              )}
            </ul>
          </div>
        </>
      )}
      <div className="settings-form__actions">
        <button type="button" className="button" onClick={onClose} data-testid="tasks-close">
          Close
        </button>
      </div>
    </dialog>
  );
}
