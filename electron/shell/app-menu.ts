import { app, Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: the standard roles (so Cut, Copy, Paste, Undo, Reload-free View and the window
 * shortcuts work as on every other app), About, and the quick prompt. No role that reloads or opens
 * devtools in a packaged app: a reload drops a streaming answer, and devtools are for developers.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  isPackaged: boolean,
  openQuickPrompt: () => void,
): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { role: 'about', label: 'About Deputy' };
  const quickPrompt: MenuItemConstructorOptions = { label: 'Quick prompt', click: openQuickPrompt };
  const developer: MenuItemConstructorOptions[] = isPackaged
    ? []
    : [{ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' }];
  return [
    ...(isMac
      ? [
          {
            label: app.name,
            submenu: [
              about,
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: [quickPrompt, { type: 'separator' }, isMac ? { role: 'close' } : { role: 'quit' }],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...developer,
      ],
    },
    { role: 'windowMenu' },
    ...(isMac ? [] : [{ label: 'Help', submenu: [about] } satisfies MenuItemConstructorOptions]),
  ];
}

export function setupAppMenu(openQuickPrompt: () => void): void {
  app.setAboutPanelOptions({ applicationName: 'Deputy', applicationVersion: app.getVersion() });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(appMenuTemplate(process.platform, app.isPackaged, openQuickPrompt)),
  );
}
