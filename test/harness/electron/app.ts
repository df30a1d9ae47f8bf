import { EventEmitter } from 'node:events';
import { join } from 'node:path';

export interface PreventableEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

export const preventable = (): PreventableEvent => {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
};

export interface AppWindowList {
  all(): { close(): void }[];
}

/** Electron's `app`: paths, the ready promise, and the quit sequence with its cancelable `will-quit`. */
export class FakeApp extends EventEmitter {
  readonly isPackaged = false;
  readonly name = 'Deputy';
  badgeCount = 0;
  loginItem: { openAtLogin: boolean } | null = null;
  readonly protocolClients: string[] = [];
  isQuitting = false;
  /** Resolves with the exit code once the app has quit (or exited). */
  readonly exited: Promise<number>;
  private resolveExit!: (code: number) => void;
  private isReadyFlag = false;
  private readonly ready: Promise<void>;
  private resolveReady!: () => void;

  constructor(
    private readonly appPath: string,
    private readonly userData: string,
    private readonly windows: AppWindowList,
  ) {
    super();
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  /** Electron's launch: `will-finish-launching`, then whatever the OS hands over during launch, then `ready`. */
  markReady(duringLaunch?: () => void): void {
    this.emit('will-finish-launching');
    duringLaunch?.();
    this.isReadyFlag = true;
    this.emit('ready');
    this.resolveReady();
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  isReady(): boolean {
    return this.isReadyFlag;
  }
  getAppPath(): string {
    return this.appPath;
  }
  getPath(name: string): string {
    return name === 'userData' ? this.userData : join(this.userData, `.${name}`);
  }
  getVersion(): string {
    return '0.0.0-harness';
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  setAppUserModelId(): void {}
  setAboutPanelOptions(): void {}
  setBadgeCount(count: number): boolean {
    this.badgeCount = count;
    return true;
  }
  setLoginItemSettings(settings: { openAtLogin: boolean }): void {
    this.loginItem = settings;
  }
  setAsDefaultProtocolClient(scheme: string): boolean {
    this.protocolClients.push(scheme);
    return true;
  }

  /** Electron's order: before-quit, every window closed, will-quit (cancelable), quit. */
  quit(): void {
    if (this.isQuittingDone) return;
    this.isQuitting = true;
    this.emit('before-quit', preventable());
    for (const window of this.windows.all()) window.close();
    const willQuit = preventable();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    this.isQuittingDone = true;
    this.emit('quit', preventable(), 0);
    this.resolveExit(0);
  }
  private isQuittingDone = false;

  exit(code = 0): void {
    this.isQuittingDone = true;
    this.resolveExit(code);
  }
}
