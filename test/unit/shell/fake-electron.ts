import { EventEmitter } from 'node:events';
import type { NotificationConstructorOptions } from 'electron';

/**
 * Stand-ins for the Electron classes the shell creates. A test mocks `electron` with them:
 *   vi.mock('electron', async () => ({ BrowserWindow: (await import('./fake-electron')).FakeBrowserWindow, … }))
 * and imports this file too, getting the same module and so the same `created` lists.
 */
export class FakeBrowserWindow extends EventEmitter {
  static created: FakeBrowserWindow[] = [];
  static getAllWindows = () => FakeBrowserWindow.created.filter((window) => !window.destroyed);

  /** Forgets earlier tests' windows; they count as closed, as a module that tracks one would see them. */
  static reset(): void {
    for (const window of FakeBrowserWindow.created) window.close();
    FakeBrowserWindow.created = [];
  }

  readonly loaded: string[] = [];
  isShown = false;
  isFocused = false;
  minimized = false;
  destroyed = false;

  constructor(
    readonly options: {
      show?: boolean;
      alwaysOnTop?: boolean;
      webPreferences?: Record<string, unknown>;
      [option: string]: unknown;
    },
  ) {
    super();
    FakeBrowserWindow.created.push(this);
  }

  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }

  show(): void {
    this.isShown = true;
  }

  isMinimized(): boolean {
    return this.minimized;
  }

  restore(): void {
    this.minimized = false;
  }

  focus(): void {
    this.isFocused = true;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  close(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeNotification extends EventEmitter {
  static created: FakeNotification[] = [];
  static supported = true;
  static isSupported = () => FakeNotification.supported;

  static reset(): void {
    FakeNotification.created = [];
    FakeNotification.supported = true;
  }

  shows = 0;
  isClosed = false;

  constructor(readonly options: NotificationConstructorOptions) {
    super();
    FakeNotification.created.push(this);
  }

  show(): void {
    this.shows += 1;
  }

  close(): void {
    this.isClosed = true;
  }

  click(): void {
    this.emit('click', {});
  }

  /** As Electron 45 emits it: the index in the details, and again (deprecated) as the second argument. */
  pressAction(actionIndex: number): void {
    this.emit('action', { actionIndex }, actionIndex, -1);
  }
}
