import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({}));

const { trayIconFile, trayMenuTemplate, trayToolTip, SHORTCUT_CHOICES } =
  await import('../../../electron/shell/tray');

const actions = () => ({
  openQuickPrompt: vi.fn(),
  openDeputy: vi.fn(),
  openApprovals: vi.fn(),
  chooseShortcut: vi.fn(),
  setLaunchAtLogin: vi.fn(),
  setNotification: vi.fn(),
  setPaused: vi.fn(),
  quit: vi.fn(),
});
const state = {
  pendingApprovals: 0,
  shortcut: 'Alt+Space',
  launchAtLogin: false,
  canOpenAtLogin: true,
  notifications: { approvalNeeded: true, runFinished: true, limitReached: false },
  isPaused: false,
};

describe('the tray menu', () => {
  it('counts pending approvals, and offers them only when there are some', () => {
    const none = trayMenuTemplate(state, actions()).find((item) => item.label?.startsWith('Pending'));
    expect(none).toMatchObject({ label: 'Pending approvals (0)', enabled: false });
    const two = trayMenuTemplate({ ...state, pendingApprovals: 2 }, actions()).find((item) =>
      item.label?.startsWith('Pending'),
    );
    expect(two).toMatchObject({ label: 'Pending approvals (2)', enabled: true });
  });

  it('checks the current shortcut among the choices and reports a new one', () => {
    const chosen = actions();
    const submenu = trayMenuTemplate(state, chosen).find((item) => item.label === 'Quick prompt shortcut')
      ?.submenu as { label: string; checked: boolean; click: () => void }[];
    expect(submenu.map((item) => item.checked)).toEqual(SHORTCUT_CHOICES.map((key) => key === 'Alt+Space'));
    submenu[1]?.click();
    expect(chosen.chooseShortcut).toHaveBeenCalledWith(SHORTCUT_CHOICES[1]);
  });

  it('has a switch for each kind of notification, showing its setting', () => {
    const chosen = actions();
    const submenu = trayMenuTemplate(state, chosen).find((item) => item.label === 'Notifications')
      ?.submenu as { label: string; checked: boolean; click: (item: { checked: boolean }) => void }[];
    expect(submenu.map((item) => [item.label, item.checked])).toEqual([
      ['When an approval is needed', true],
      ['When a run finishes or fails', true],
      ['When a rate limit or the budget is reached', false],
    ]);
    submenu[2]?.click({ checked: true });
    expect(chosen.setNotification).toHaveBeenCalledWith('limitReached', true);
  });

  it('offers open at login only where Electron can set it', () => {
    const labels = (canOpenAtLogin: boolean) =>
      trayMenuTemplate({ ...state, canOpenAtLogin }, actions()).map((item) => item.label);
    expect(labels(true)).toContain('Open at login');
    expect(labels(false)).not.toContain('Open at login');
  });

  it('hands checkbox states to their settings', () => {
    const chosen = actions();
    const login = trayMenuTemplate(state, chosen).find((item) => item.label === 'Open at login');
    login?.click?.({ checked: true } as never, undefined as never, undefined as never);
    expect(chosen.setLaunchAtLogin).toHaveBeenCalledWith(true);
  });

  it('shows the pause as a checked item and in the tooltip, and hands a click to the switch', () => {
    const chosen = actions();
    const item = (isPaused: boolean) =>
      trayMenuTemplate({ ...state, isPaused }, chosen).find(
        (entry) => entry.label === 'Pause all side effects',
      );
    expect(item(false)).toMatchObject({ type: 'checkbox', checked: false });
    expect(item(true)).toMatchObject({ type: 'checkbox', checked: true });
    item(false)?.click?.({ checked: true } as never, undefined as never, undefined as never);
    expect(chosen.setPaused).toHaveBeenCalledWith(true);
    expect(trayToolTip({ isPaused: true, pendingApprovals: 2 })).toBe('Deputy: side effects paused');
    expect(trayToolTip({ isPaused: false, pendingApprovals: 2 })).toBe('Deputy: 2 waiting for approval');
    expect(trayToolTip({ isPaused: false, pendingApprovals: 0 })).toBe('Deputy');
  });

  it('picks a template on macOS and the theme’s glyph elsewhere', () => {
    expect(trayIconFile('darwin', true)).toBe('trayTemplate.png');
    expect(trayIconFile('win32', true)).toBe('tray-dark.png');
    expect(trayIconFile('linux', false)).toBe('tray-light.png');
  });
});
