import { describe, expect, it, vi } from 'vitest';
import type { IpcInvokeEvent } from '../../../electron/shell/ipc-handlers';
import { createShellHandler } from '../../../electron/shell/shell-ipc-handler';

const SETTINGS = {
  preferences: {
    quickPromptShortcut: 'Alt+Space',
    showTray: true,
    launchAtLogin: false,
    notifications: { approvalNeeded: true, runFinished: true, limitReached: true },
  },
  keyNames: 'pc' as const,
  canOpenAtLogin: true,
};

const shellActions = () => ({
  openThread: vi.fn(),
  showMain: vi.fn(),
  openConnections: vi.fn(),
  // The quick prompt's page is webContents 7 (the event below).
  isQuickPrompt: vi.fn((senderId: number) => senderId === 7),
  desktopSettings: vi.fn(() => SETTINGS),
  changeDesktop: vi.fn(() => ({ settings: SETTINGS, problem: null })),
  openAgentsFolder: vi.fn(),
});

const event = {
  senderFrame: { url: 'app://deputy/index.html#/quick', parent: null },
  sender: { id: 7 },
} as unknown as IpcInvokeEvent;

describe('deputy:shell', () => {
  it('opens a conversation for a trusted page with a valid id', () => {
    const actions = shellActions();
    const { openThread } = actions;
    const handler = createShellHandler(actions, () => true);
    expect(handler(event, { action: 'open-thread', threadId: 'thread-1' })).toEqual({ ok: true, data: null });
    expect(openThread).toHaveBeenCalledWith('thread-1');
  });

  it('brings the main window forward for a trusted page', () => {
    const actions = shellActions();
    const handler = createShellHandler(actions, () => true);
    expect(handler(event, { action: 'show-main' })).toEqual({ ok: true, data: null });
    expect(actions.showMain).toHaveBeenCalledWith(7);
    expect(createShellHandler(actions, () => false)(event, { action: 'show-main' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(actions.showMain).toHaveBeenCalledOnce();
  });

  it('refuses a page that is not ours before looking at the request', () => {
    const actions = shellActions();
    const { openThread } = actions;
    const handler = createShellHandler(actions, () => false);
    expect(handler(event, { action: 'open-thread', threadId: 'thread-1' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(openThread).not.toHaveBeenCalled();
  });

  it.each([
    undefined,
    'open-thread',
    { action: 'open-thread' },
    { action: 'open-thread', threadId: '../x' },
    { action: 'open-thread', threadId: 'a'.repeat(129) },
    { action: 'open-thread', threadId: 't', extra: true },
    { action: 'quit' },
    { action: 'get-desktop', extra: 1 },
    { action: 'show-main', threadId: 't' },
    { action: 'open-connections', connection: 'gemini' },
    { action: 'open-connections', url: 'https://example.com' },
    { action: 'change-desktop' },
    { action: 'change-desktop', change: { quickPromptShortcut: '' } },
    { action: 'change-desktop', change: { quickPromptShortcut: 'x'.repeat(61) } },
    { action: 'change-desktop', change: { showTray: 'no' } },
    { action: 'change-desktop', change: { notifications: { everything: true } } },
    { action: 'change-desktop', change: { mainWindow: { isMaximized: true } } },
  ])('refuses %j', (request) => {
    const actions = shellActions();
    const handler = createShellHandler(actions, () => true);
    expect(handler(event, request)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(actions.openThread).not.toHaveBeenCalled();
    expect(actions.openConnections).not.toHaveBeenCalled();
    expect(actions.changeDesktop).not.toHaveBeenCalled();
  });

  it('opens Connections in the main window for the quick prompt, and for no other page', () => {
    const actions = shellActions();
    const handler = createShellHandler(actions, () => true);
    expect(handler(event, { action: 'open-connections' })).toEqual({ ok: true, data: null });
    expect(actions.openConnections).toHaveBeenCalledOnce();

    // Another of the app's own pages (the main window, an approval window) has its own way, or none.
    const mainWindow = { ...event, sender: { id: 8 } } as unknown as IpcInvokeEvent;
    expect(handler(mainWindow, { action: 'open-connections' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    // A page that is not ours is refused before anything asks which window it is.
    actions.isQuickPrompt.mockClear();
    expect(createShellHandler(actions, () => false)(event, { action: 'open-connections' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(actions.isQuickPrompt).not.toHaveBeenCalled();
    expect(actions.openConnections).toHaveBeenCalledOnce();
  });

  it('reads and changes the desktop preferences for a trusted page', () => {
    const actions = shellActions();
    const handler = createShellHandler(actions, () => true);
    expect(handler(event, { action: 'get-desktop' })).toEqual({ ok: true, data: SETTINGS });
    const change = { quickPromptShortcut: 'CommandOrControl+Shift+K', notifications: { runFinished: false } };
    expect(handler(event, { action: 'change-desktop', change })).toEqual({
      ok: true,
      data: { settings: SETTINGS, problem: null },
    });
    expect(actions.changeDesktop).toHaveBeenCalledWith(change);
    expect(createShellHandler(actions, () => false)(event, { action: 'get-desktop' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
  });

  it('shows the agents folder, and takes no path from the page', () => {
    const actions = shellActions();
    const handler = createShellHandler(actions, () => true);
    expect(handler(event, { action: 'open-agents-folder' })).toEqual({ ok: true, data: null });
    expect(actions.openAgentsFolder).toHaveBeenCalledTimes(1);
    expect(handler(event, { action: 'open-agents-folder', path: '/etc' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(actions.openAgentsFolder).toHaveBeenCalledTimes(1);
  });
});
