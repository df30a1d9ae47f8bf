import { app, Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
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
 * The tray (menu-bar) icon: a template image on macOS, which the system tints for light and dark menu
 * bars; the app icon elsewhere, where trays keep colour. The icons ship beside the app (extraResources).
 */
function trayIcon(): Electron.NativeImage {
  const folder = app.isPackaged
    ? join(process.resourcesPath, 'tray')
    : join(app.getAppPath(), 'resources', 'tray');
  const isMac = process.platform === 'darwin';
  const image = nativeImage.createFromPath(join(folder, isMac ? 'trayTemplate.png' : 'tray.png'));
  if (isMac) image.setTemplateImage(true);
  return image;
}

export interface DeputyTray {
  update(state: TrayState): void;
  destroy(): void;
}

export function createTray(state: TrayState, actions: TrayActions): DeputyTray {
  const tray = new Tray(trayIcon());
  tray.setToolTip('Deputy');
  const render = (next: TrayState): void => {
    tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(next, actions)));
  };
  render(state);
  // Windows and Linux users expect a left click on the tray icon to do something at once.
  tray.on('click', () => actions.openQuickPrompt());
  return { update: render, destroy: () => tray.destroy() };
}
