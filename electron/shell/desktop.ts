import { app, globalShortcut, Notification } from 'electron';
import type { Approval, ContractHost } from '../../shared/contract';
import {
  withSwitches,
  type DesktopChangeResult,
  type DesktopPreferencesChange,
  type DesktopSettings,
} from '../../shared/shell';
import { redactError } from '../vault/redactor';
import { subscribeToApprovals } from './approval-notifications';
import type { PreferencesStore } from './preferences';
import type { QuickPrompt } from './quick-prompt';
import { registerQuickPromptShortcut } from './shortcut';
import { createTray, type DeputyTray, type TrayActions, type TrayState } from './tray';

/** Electron sets login items on macOS and Windows; Linux desktops each do it their own way. */
const canOpenAtLogin = (): boolean => process.platform === 'darwin' || process.platform === 'win32';

export interface DesktopDeps {
  preferences: PreferencesStore;
  quickPrompt: QuickPrompt;
  openDeputy(): void;
  openApproval(approvalId: string): void;
}

export interface Desktop {
  /** Settings → Desktop reads this. */
  settings(): DesktopSettings;
  /** Applies and keeps a change; a key the OS refuses is not kept, and the answer says why in words. */
  change(change: DesktopPreferencesChange): DesktopChangeResult;
  stop(): void;
}

/** Says in words why the shortcut does not work: a key that silently does nothing looks like a broken app. */
function tellShortcutProblem(message: string): void {
  console.warn(`[shortcut] ${message}`);
  if (Notification.isSupported())
    new Notification({ title: 'Deputy’s shortcut is not set', body: message }).show();
}

/** A stream the Host cannot open must not stop the app from starting: the windows still show the state. */
function subscribeSafely(open: () => () => void): () => void {
  try {
    return open();
  } catch (error) {
    console.error('[desktop] could not subscribe', redactError(error));
    return () => undefined;
  }
}

/**
 * The parts of Deputy that live outside its windows: the tray and its menu, the global shortcut and
 * launch at login, all following the shell preferences, which the tray and Settings → Desktop change.
 */
export function setupDesktop(host: ContractHost, deps: DesktopDeps): Desktop {
  const { preferences, quickPrompt } = deps;
  let pending: readonly Approval[] = [];
  let isPaused = false;
  let tray: DeputyTray | null = null;

  const state = (): TrayState => {
    const current = preferences.get();
    return {
      pendingApprovals: pending.length,
      shortcut: current.quickPromptShortcut,
      launchAtLogin: current.launchAtLogin,
      canOpenAtLogin: canOpenAtLogin(),
      notifications: current.notifications,
      isPaused,
    };
  };
  const refresh = (): void => tray?.update(state());

  const applyShortcut = (accelerator: string): string | null => {
    const result = registerQuickPromptShortcut(accelerator, () => quickPrompt.toggle());
    return result.ok ? null : result.message;
  };

  const applyLoginItem = (): void => {
    if (!canOpenAtLogin()) return;
    app.setLoginItemSettings({ openAtLogin: preferences.get().launchAtLogin });
  };

  const settings = (): DesktopSettings => {
    const { quickPromptShortcut, showTray, launchAtLogin, notifications } = preferences.get();
    return {
      preferences: { quickPromptShortcut, showTray, launchAtLogin, notifications },
      keyNames: process.platform === 'darwin' ? 'mac' : 'pc',
      canOpenAtLogin: canOpenAtLogin(),
    };
  };

  const trayActions: TrayActions = {
    openQuickPrompt: () => quickPrompt.show(),
    openDeputy: () => deps.openDeputy(),
    openApprovals: () => {
      const first = pending[0];
      if (first) deps.openApproval(first.id);
      else deps.openDeputy();
    },
    chooseShortcut: (accelerator) => {
      const { problem } = change({ quickPromptShortcut: accelerator });
      if (problem) tellShortcutProblem(problem);
    },
    setLaunchAtLogin: (isOn) => change({ launchAtLogin: isOn }),
    setNotification: (kind, isOn) => change({ notifications: { [kind]: isOn } }),
    setPaused: (next) => {
      // The Host decides and audits; the tray shows what comes back through sideEffects.changed.
      host.invoke('sideEffects.set', { isPaused: next }).catch((error: unknown) => {
        console.error('[desktop] could not change the pause', redactError(error));
        refresh();
      });
    },
    quit: () => app.quit(),
  };

  const applyTray = (): void => {
    if (preferences.get().showTray && !tray) tray = createTray(state(), trayActions);
    if (!preferences.get().showTray && tray) {
      tray.destroy();
      tray = null;
    }
  };

  function change(request: DesktopPreferencesChange): DesktopChangeResult {
    let problem: string | null = null;
    const next = request.quickPromptShortcut;
    if (next !== undefined && next !== preferences.get().quickPromptShortcut) {
      // Kept only if the OS accepted it; otherwise the old key is registered again and stays chosen.
      problem = applyShortcut(next);
      if (problem) applyShortcut(preferences.get().quickPromptShortcut);
      else preferences.update((current) => ({ ...current, quickPromptShortcut: next }));
    }
    preferences.update((current) => withSwitches(current, request));
    applyLoginItem();
    applyTray();
    refresh();
    return { settings: settings(), problem };
  }

  const startupProblem = applyShortcut(preferences.get().quickPromptShortcut);
  if (startupProblem) tellShortcutProblem(startupProblem);
  applyLoginItem();
  applyTray();

  const unsubscribe = subscribeToApprovals(host, (next) => {
    pending = next;
    refresh();
  });
  const unsubscribePause = subscribeSafely(() =>
    host.subscribe('sideEffects.changed', {}, (event) => {
      isPaused = event.state.isPaused;
      refresh();
    }),
  );

  return {
    settings,
    change,
    stop: () => {
      unsubscribe();
      unsubscribePause();
      // The OS keeps a global key for the process until it exits; released at once instead.
      globalShortcut.unregisterAll();
      tray?.destroy();
      tray = null;
    },
  };
}
