import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ app: { name: 'Deputy' } }));

const { appMenuTemplate } = await import('../../../electron/shell/app-menu');

type Item = { label?: string; role?: string; submenu?: Item[] };
const roles = (items: Item[]): string[] =>
  items.flatMap((item) => [...(item.role ? [item.role] : []), ...roles(item.submenu ?? [])]);

describe('the application menu', () => {
  it('on macOS: the app menu with About, hide and quit, then File, Edit, View, Window', () => {
    const menu = appMenuTemplate('darwin', true, () => undefined) as Item[];
    expect(menu.map((item) => item.label ?? item.role)).toEqual([
      'Deputy',
      'File',
      'editMenu',
      'View',
      'windowMenu',
    ]);
    expect(roles(menu)).toEqual(
      expect.arrayContaining(['about', 'hide', 'quit', 'close', 'editMenu', 'togglefullscreen']),
    );
  });

  it('elsewhere: Quit under File and About under Help', () => {
    const menu = appMenuTemplate('win32', true, () => undefined) as Item[];
    expect(menu.map((item) => item.label ?? item.role)).toEqual([
      'File',
      'editMenu',
      'View',
      'windowMenu',
      'Help',
    ]);
    expect(roles(menu)).toEqual(expect.arrayContaining(['quit', 'about']));
  });

  it('offers reload and devtools only to an unpackaged app', () => {
    expect(roles(appMenuTemplate('linux', true, () => undefined) as Item[])).not.toContain('toggleDevTools');
    expect(roles(appMenuTemplate('linux', true, () => undefined) as Item[])).not.toContain('reload');
    expect(roles(appMenuTemplate('linux', false, () => undefined) as Item[])).toContain('toggleDevTools');
  });

  it('opens the quick prompt from File', () => {
    const open = vi.fn();
    const file = (appMenuTemplate('linux', true, open) as (Item & { click?: () => void })[]).find(
      (item) => item.label === 'File',
    );
    (file?.submenu?.[0] as { click?: () => void } | undefined)?.click?.();
    expect(open).toHaveBeenCalled();
  });
});
