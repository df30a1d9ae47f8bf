import { app, Menu, nativeImage, nativeTheme, Tray, type MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import type { ShellPreferences } from './preferences';
import { shortcutLabel } from './shortcut';

/** Keys offered in the tray's shortcut menu: the default, and a few that are rarely taken when it is. */
export const SHORTCUT_CHOICES = [
  'Alt+Space',
  'CommandOrControl+Shift+Space',
  'CommandOrControl+Alt+D',
] as const;

export interface TrayState {
  pendingApprovals: number;
  shortcut: string;
  launchAtLogin: boolean;
  /** Electron can set a login item on macOS and Windows only; elsewhere the switch is not offered. */
  canOpenAtLogin: boolean;
  notifications: ShellPreferences['notifications'];
  /** "Pause all side effects" is on: shown as a checked item, in the tooltip and (macOS) beside the icon. */
  isPaused: boolean;
}

export type NotificationKind = keyof ShellPreferences['notifications'];

/** Each kind of notification has its own switch, in the words of the event it is about. */
const NOTIFICATION_LABELS: Readonly<Record<NotificationKind, string>> = {
  approvalNeeded: 'When an approval is needed',
  runFinished: 'When a run finishes or fails',
  limitReached: 'When a rate limit or the budget is reached',
};

export interface TrayActions {
  openQuickPrompt(): void;
  openDeputy(): void;
  openApprovals(): void;
  chooseShortcut(accelerator: string): void;
  setLaunchAtLogin(isOn: boolean): void;
  setNotification(kind: NotificationKind, isOn: boolean): void;
  setPaused(isPaused: boolean): void;
  quit(): void;
}

/** The tray menu for a state; pure, so what it offers is tested without a tray. */
export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { label: 'Quick prompt', accelerator: state.shortcut, click: () => actions.openQuickPrompt() },
    { label: 'Open Deputy', click: () => actions.openDeputy() },
    {
      label: `Pending approvals (${state.pendingApprovals})`,
      enabled: state.pendingApprovals > 0,
      click: () => actions.openApprovals(),
    },
    {
      label: 'Pause all side effects',
      type: 'checkbox',
      checked: state.isPaused,
      click: (item: { checked: boolean }) => actions.setPaused(item.checked),
    },
    { type: 'separator' },
    {
      label: 'Quick prompt shortcut',
      submenu: SHORTCUT_CHOICES.map((accelerator) => ({
        label: shortcutLabel(accelerator),
        type: 'radio' as const,
        checked: accelerator === state.shortcut,
        click: () => actions.chooseShortcut(accelerator),
      })),
    },
    {
      label: 'Notifications',
      submenu: (Object.keys(NOTIFICATION_LABELS) as NotificationKind[]).map((kind) => ({
        label: NOTIFICATION_LABELS[kind],
        type: 'checkbox' as const,
        checked: state.notifications[kind],
        click: (item: { checked: boolean }) => actions.setNotification(kind, item.checked),
      })),
    },
    ...(state.canOpenAtLogin
      ? [
          {
            label: 'Open at login',
            type: 'checkbox' as const,
            checked: state.launchAtLogin,
            click: (item: { checked: boolean }) => actions.setLaunchAtLogin(item.checked),
          },
        ]
      : []),
    { type: 'separator' },
    { label: 'Quit Deputy', click: () => actions.quit() },
  ];
}

/**
 * Which icon the tray shows: a template image on macOS, which the system tints for light and dark menu bars;
 * elsewhere trays keep colour, so a dark glyph on a light taskbar or panel and a light one on a dark one.
 */
export function trayIconFile(platform: NodeJS.Platform, isDarkTheme: boolean): string {
  if (platform === 'darwin') return 'trayTemplate.png';
  return isDarkTheme ? 'tray-dark.png' : 'tray-light.png';
}

/** Windows themes the taskbar apart from apps; elsewhere the one system theme covers the panel too. */
function isDarkTaskbar(): boolean {
  return process.platform === 'win32'
    ? nativeTheme.shouldUseDarkColorsForSystemIntegratedUI
    : nativeTheme.shouldUseDarkColors;
}

/** The icon for the theme of this moment. The icons ship beside the app (extraResources). */
function trayIcon(): Electron.NativeImage {
  const folder = app.isPackaged
    ? join(process.resourcesPath, 'tray')
    : join(app.getAppPath(), 'resources', 'tray');
  const image = nativeImage.createFromPath(join(folder, trayIconFile(process.platform, isDarkTaskbar())));
  if (process.platform === 'darwin') image.setTemplateImage(true);
  return image;
}

/** The tooltip says what the menu says: a paused Deputy must be visible without opening anything. */
export function trayToolTip(state: Pick<TrayState, 'isPaused' | 'pendingApprovals'>): string {
  if (state.isPaused) return 'Deputy: side effects paused';
  if (state.pendingApprovals > 0) return `Deputy: ${state.pendingApprovals} waiting for approval`;
  return 'Deputy';
}

export interface DeputyTray {
  update(state: TrayState): void;
  destroy(): void;
}

export function createTray(state: TrayState, actions: TrayActions): DeputyTray {
  const tray = new Tray(trayIcon());
  const render = (next: TrayState): void => {
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(next, actions)));
    tray.setToolTip(trayToolTip(next));
    // The menu bar shows a word beside the icon; Windows and Linux trays have no room for one.
    if (process.platform === 'darwin') tray.setTitle(next.isPaused ? 'Paused' : '');
  };
  render(state);
  // Windows and Linux users expect a left click on the tray icon to do something at once.
  tray.on('click', () => actions.openQuickPrompt());
  // Follows the system when it switches between light and dark (a template image is tinted by macOS itself).
  const onTheme = (): void => tray.setImage(trayIcon());
  nativeTheme.on('updated', onTheme);
  return {
    update: render,
    destroy: () => {
      nativeTheme.off('updated', onTheme);
      tray.destroy();
    },
  };
}
