/**
 * What the Electron preload offers a page besides the contract (`window.deputyShell`): actions on the
 * app's windows and the shell's own preferences, which only the desktop shell has. In a browser on the
 * headless host it is absent.
 */
export interface DeputyShell {
  /** Shows the main window on this conversation (the quick prompt's "Open in Deputy"). */
  openThread(threadId: string): Promise<void>;
  /** The audit viewer's "Back to Deputy": the main window comes forward, or goes back to the chat if it is this one. */
  showMain(): Promise<void>;
  /**
   * The quick prompt's way to a missing or refused Gemini key: it hides, and the main window comes forward at
   * Settings → Connections, on the Gemini card. Only the quick prompt may ask.
   */
  openConnections(): Promise<void>;
  /** Settings → Desktop: the shell's preferences (electron-store), and what this OS allows. */
  getDesktopSettings(): Promise<DesktopSettings>;
  /** Applies a change at once (the shortcut is registered, the tray shown or hidden) and keeps it. */
  changeDesktopPreferences(change: DesktopPreferencesChange): Promise<DesktopChangeResult>;
  /** Settings → Agents: shows the folder of the person's own agent files in the file manager. */
  openAgentsFolder(): Promise<void>;
}

export type NotificationKind = 'approvalNeeded' | 'runFinished' | 'limitReached';

export interface DesktopPreferences {
  /** An Electron accelerator, e.g. `Alt+Space` (Option+Space on a Mac). */
  quickPromptShortcut: string;
  showTray: boolean;
  launchAtLogin: boolean;
  notifications: Record<NotificationKind, boolean>;
}

export interface DesktopPreferencesChange {
  quickPromptShortcut?: string;
  showTray?: boolean;
  launchAtLogin?: boolean;
  notifications?: Partial<Record<NotificationKind, boolean>>;
}

export interface DesktopSettings {
  preferences: DesktopPreferences;
  /** `mac` names keys Option and Command; the others Alt and Ctrl. */
  keyNames: 'mac' | 'pc';
  /** Electron sets a login item on macOS and Windows only. */
  canOpenAtLogin: boolean;
}

export interface DesktopChangeResult {
  settings: DesktopSettings;
  /** Why the change was not kept (a key the OS refused), in words; null when all of it was kept. */
  problem: string | null;
}

/**
 * The switches of a change applied to preferences (the shortcut is not among them: the shell keeps a new key
 * only once the OS has taken it). The shell keeps the result; Settings → Desktop shows it at once.
 */
export function withSwitches<P extends DesktopPreferences>(current: P, change: DesktopPreferencesChange): P {
  return {
    ...current,
    ...(change.showTray !== undefined && { showTray: change.showTray }),
    ...(change.launchAtLogin !== undefined && { launchAtLogin: change.launchAtLogin }),
    notifications: { ...current.notifications, ...change.notifications },
  };
}
