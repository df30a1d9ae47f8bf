import { BrowserWindow, Notification } from 'electron';
import type { ContractHost, RunEvent } from '../../shared/contract';
import { redactError } from '../vault/redactor';
import { oneLine } from './one-line';
import type { ShellPreferences } from './preferences';

/** A rate limit or the model budget: the person may want to wait, or raise the budget. */
const LIMIT_CODES = new Set(['model_rate_limited', 'rate_limited']);
const BODY_MAX_CHARS = 160;
/** Kept only so they are not garbage-collected while on screen (Electron drops their click handlers then). */
const KEPT = 5;

export type RunNotice = {
  title: string;
  body: string;
  threadId: string;
  kind: 'runFinished' | 'limitReached';
};

/**
 * What, if anything, to tell the person when a run ends. Pure, so the choice is tested alone. A run that
 * stops to ask for approval has not ended: the approval notification covers it. `errorCode` is the code of
 * the run's `error` event, which comes just before a failed run's `result`.
 */
export function runNotice(event: RunEvent, errorCode?: string): RunNotice | null {
  if (event.type !== 'result' || event.result.status === 'awaiting_confirmation') return null;
  const isDone = event.result.status === 'completed';
  const isLimit = !isDone && errorCode !== undefined && LIMIT_CODES.has(errorCode);
  return {
    kind: isLimit ? 'limitReached' : 'runFinished',
    title: isDone ? 'Deputy finished' : isLimit ? 'Deputy reached a limit' : 'Deputy could not finish',
    body: oneLine(event.result.summary || (isDone ? 'The task is done.' : 'The run failed.'), BODY_MAX_CHARS),
    threadId: event.threadId,
  };
}

export interface RunNotificationDeps {
  preferences: () => ShellPreferences;
  openThread: (threadId: string) => void;
  /** True while one of Deputy's windows has focus: then the person is watching, and nothing pops up. */
  isAppFocused?: () => boolean;
}

/** Notifies about finished, failed and limited runs while no Deputy window has focus. Returns the cleanup. */
export function setupRunNotifications(host: ContractHost, deps: RunNotificationDeps): () => void {
  const isAppFocused = deps.isAppFocused ?? (() => BrowserWindow.getFocusedWindow() !== null);
  const kept: Notification[] = [];
  /** Run id → the code of its error event, read when its result follows (one notification per run). */
  const errorCodes = new Map<string, string>();

  const onEvent = (event: RunEvent): void => {
    if (event.type === 'error') {
      if (event.code !== undefined) errorCodes.set(event.runId, event.code);
      return;
    }
    if (event.type !== 'result') return;
    const errorCode = errorCodes.get(event.runId);
    errorCodes.delete(event.runId);
    const notice = runNotice(event, errorCode);
    if (!notice || isAppFocused() || !Notification.isSupported()) return;
    if (!deps.preferences().notifications[notice.kind]) return;
    // The body is the run's own summary or error, never its arguments: a notification shows on a locked screen.
    const notification = new Notification({ title: notice.title, body: notice.body });
    notification.on('click', () => deps.openThread(notice.threadId));
    notification.show();
    kept.push(notification);
    if (kept.length > KEPT) kept.shift()?.close();
  };

  try {
    const unsubscribe = host.subscribe('run.events', {}, onEvent);
    return () => {
      unsubscribe();
      for (const notification of kept.splice(0)) notification.close();
    };
  } catch (error) {
    // The chat still shows every run; a missing stream must not stop the app from starting.
    console.error('[run-notifications] could not subscribe to run.events', redactError(error));
    return () => undefined;
  }
}
