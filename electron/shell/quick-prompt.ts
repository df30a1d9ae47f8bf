import { BrowserWindow, screen } from 'electron';
import { rendererEntry, secureWebPreferences } from './windows';

export const QUICK_PROMPT_SIZE = { width: 560, height: 440 } as const;

/** The quick prompt's page: the renderer's compact chat, at `#/quick`. */
export function quickPromptUrl(): string {
  const url = rendererEntry();
  url.hash = '/quick';
  return url.href;
}

export interface QuickPrompt {
  /** Shows it on the display the pointer is on, or hides it if it is already in front. */
  toggle(): void;
  show(): void;
  hide(): void;
  /** Whether the page with this webContents id is the quick prompt's: some shell actions are its alone. */
  isItsPage(webContentsId: number): boolean;
}

/**
 * The small, frameless, always-on-top window the tray and the global shortcut open. Created once and
 * hidden rather than closed, so the conversation in it (and a run still streaming) survives Escape.
 */
export function createQuickPrompt(): QuickPrompt {
  let window: BrowserWindow | null = null;

  function ensureWindow(): BrowserWindow {
    if (window && !window.isDestroyed()) return window;
    const created = new BrowserWindow({
      ...QUICK_PROMPT_SIZE,
      title: 'Deputy quick prompt',
      frame: false,
      alwaysOnTop: true,
      resizable: false,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
      skipTaskbar: true,
      show: false,
      webPreferences: secureWebPreferences(),
    });
    // Escape hides the window from the main process, so it works whatever the page is doing.
    created.webContents.on('before-input-event', (event, input) => {
      if (input.type === 'keyDown' && input.key === 'Escape') {
        event.preventDefault();
        created.hide();
      }
    });
    created.on('closed', () => {
      if (window === created) window = null;
    });
    created.loadURL(quickPromptUrl()).catch((error: unknown) => {
      console.error('[quick-prompt] the page did not load', error);
    });
    window = created;
    return created;
  }

  function show(): void {
    const target = ensureWindow();
    // Centred on the display the pointer is on: the one the person is looking at when they press the key.
    const { workArea } = screen.getDisplayNearestPoint(screen.getCursorScreenPoint());
    target.setBounds({
      x: Math.round(workArea.x + (workArea.width - QUICK_PROMPT_SIZE.width) / 2),
      y: Math.round(workArea.y + (workArea.height - QUICK_PROMPT_SIZE.height) / 3),
      ...QUICK_PROMPT_SIZE,
    });
    target.show();
    target.focus();
  }

  function hide(): void {
    if (window && !window.isDestroyed()) window.hide();
  }

  return {
    show,
    hide,
    isItsPage: (webContentsId) =>
      window !== null && !window.isDestroyed() && window.webContents.id === webContentsId,
    toggle() {
      if (window && !window.isDestroyed() && window.isVisible() && window.isFocused()) hide();
      else show();
    },
  };
}
