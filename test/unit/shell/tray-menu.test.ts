import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({}));

const { trayMenuTemplate, SHORTCUT_CHOICES } = await import('../../../electron/shell/tray');

const actions = () => ({
  openQuickPrompt: vi.fn(),
  openDeputy: vi.fn(),
  openApprovals: vi.fn(),
  chooseShortcut: vi.fn(),
  setLaunchAtLogin: vi.fn(),
  setNotifyRunFinished: vi.fn(),
  quit: vi.fn(),
});
const state = { pendingApprovals: 0, shortcut: 'Alt+Space', launchAtLogin: false, notifyRunFinished: true };

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

  it('hands checkbox states to their settings', () => {
    const chosen = actions();
    const login = trayMenuTemplate(state, chosen).find((item) => item.label === 'Open at login');
    login?.click?.({ checked: true } as never, undefined as never, undefined as never);
    expect(chosen.setLaunchAtLogin).toHaveBeenCalledWith(true);
  });
});
