import { app, globalShortcut, Notification } from 'electron';
import type { Approval, ContractHost } from '../../shared/contract';
import { subscribeToApprovals } from './approval-notifications';
import type { PreferencesStore } from './preferences';
import type { QuickPrompt } from './quick-prompt';
import { registerQuickPromptShortcut } from './shortcut';
import { createTray, type DeputyTray, type TrayState } from './tray';
import { redactError } from '../vault/redactor';

/** A stream the Host cannot open must not stop the app from starting: the windows still show the state. */
function subscribeSafely(open: () => () => void): () => void {
  try {
    return open();
  } catch (error) {
    console.error('[desktop] could not subscribe', redactError(error));
    return () => undefined;
  }
}

/** Electron sets login items on macOS and Windows; Linux desktops each do it their own way. */
const canOpenAtLogin = (): boolean => process.platform === 'darwin' || process.platform === 'win32';

export interface DesktopDeps {
  preferences: PreferencesStore;
  quickPrompt: QuickPrompt;
  openDeputy(): void;
  openApproval(approvalId: string): void;
}

/** Says in words why the shortcut does not work: a key that silently does nothing looks like a broken app. */
function tellShortcutProblem(message: string): void {
  console.warn(`[shortcut] ${message}`);
  if (Notification.isSupported())
    new Notification({ title: 'Deputy’s shortcut is not set', body: message }).show();
}

/**
 * The parts of Deputy that live outside its windows: the tray and its menu, the global shortcut and
 * launch at login, all following the shell preferences. Returns the cleanup.
 */
export function setupDesktop(host: ContractHost, deps: DesktopDeps): () => void {
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

  const applyShortcut = (accelerator: string): boolean => {
    const result = registerQuickPromptShortcut(accelerator, () => quickPrompt.toggle());
    if (!result.ok) tellShortcutProblem(result.message);
    return result.ok;
  };

  const applyLoginItem = (): void => {
    if (!canOpenAtLogin()) return;
    app.setLoginItemSettings({ openAtLogin: preferences.get().launchAtLogin });
  };

  applyShortcut(preferences.get().quickPromptShortcut);
  applyLoginItem();

  if (preferences.get().showTray) {
    tray = createTray(state(), {
      openQuickPrompt: () => quickPrompt.show(),
      openDeputy: () => deps.openDeputy(),
      openApprovals: () => {
        const first = pending[0];
        if (first) deps.openApproval(first.id);
        else deps.openDeputy();
      },
      chooseShortcut: (accelerator) => {
        // Kept only if the OS accepted it; otherwise the old key is registered again and stays chosen.
        if (applyShortcut(accelerator))
          preferences.update((p) => ({ ...p, quickPromptShortcut: accelerator }));
        else applyShortcut(preferences.get().quickPromptShortcut);
        refresh();
      },
      setLaunchAtLogin: (isOn) => {
        preferences.update((p) => ({ ...p, launchAtLogin: isOn }));
        applyLoginItem();
        refresh();
      },
      setNotification: (kind, isOn) => {
        preferences.update((p) => ({ ...p, notifications: { ...p.notifications, [kind]: isOn } }));
        refresh();
      },
      setPaused: (next) => {
        // The Host decides and audits; the tray shows what comes back through sideEffects.changed.
        host.invoke('sideEffects.set', { isPaused: next }).catch((error: unknown) => {
          console.error('[desktop] could not change the pause', redactError(error));
          refresh();
        });
      },
      quit: () => app.quit(),
    });
  }

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

  return () => {
    unsubscribe();
    unsubscribePause();
    // The OS keeps a global key for the process until it exits; released at once instead.
    globalShortcut.unregisterAll();
    tray?.destroy();
    tray = null;
  };
}
