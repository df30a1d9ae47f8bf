import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';

/**
 * The stand-ins for Electron's native surfaces: each records what the app asked of it and lets a test press
 * its buttons (a notification's click or action, a tray item, a global key).
 */

export interface NotificationOptions {
  title?: string;
  body?: string;
  id?: string;
  actions?: { type: string; text: string }[];
}

export class FakeNotification extends EventEmitter {
  isShown = false;
  isClosed = false;
  constructor(
    readonly options: NotificationOptions,
    private readonly registry: FakeNotification[],
  ) {
    super();
    registry.push(this);
  }
  show(): void {
    this.isShown = true;
  }
  close(): void {
    this.isClosed = true;
    this.emit('close');
  }
  /** What the OS does when the person clicks the notification. */
  click(): void {
    this.emit('click');
  }
  /** What macOS does when the person presses one of its buttons. */
  pressAction(text: string): void {
    const index = (this.options.actions ?? []).findIndex((action) => action.text === text);
    if (index === -1) throw new Error(`the notification "${this.options.title}" has no ${text} button`);
    this.emit('action', { actionIndex: index }, index);
  }
}

export function notificationClass(registry: FakeNotification[]) {
  return class extends FakeNotification {
    static isSupported = () => true;
    constructor(options: NotificationOptions) {
      super(options, registry);
    }
  };
}

export interface MenuItem {
  label?: string;
  type?: string;
  role?: string;
  checked?: boolean;
  enabled?: boolean;
  accelerator?: string;
  submenu?: MenuItem[];
  click?: (item: MenuItem) => void;
}

export class FakeMenu {
  constructor(readonly items: MenuItem[]) {}
  static buildFromTemplate = (template: MenuItem[]) => new FakeMenu(template);
  /** Finds an item by its label anywhere in the menu, as a person reads it. */
  find(label: string | RegExp): MenuItem {
    const matches = (item: MenuItem) =>
      typeof label === 'string' ? item.label === label : label.test(item.label ?? '');
    const search = (items: MenuItem[]): MenuItem | undefined => {
      for (const item of items) {
        const found = matches(item) ? item : item.submenu && search(item.submenu);
        if (found) return found;
      }
      return undefined;
    };
    const found = search(this.items);
    if (!found) throw new Error(`the menu has no item ${String(label)}`);
    return found;
  }
  click(label: string | RegExp): void {
    const item = this.find(label);
    if (item.enabled === false) throw new Error(`${item.label} is disabled`);
    // Electron flips a checkbox before calling its handler.
    if (item.type === 'checkbox') item.checked = !item.checked;
    item.click?.(item);
  }
}

export class FakeTray extends EventEmitter {
  menu: FakeMenu | null = null;
  toolTip = '';
  /** The text beside the icon in the macOS menu bar. */
  title = '';
  isDestroyed = false;
  constructor(
    public image: FakeNativeImage,
    registry: FakeTray[],
  ) {
    super();
    registry.push(this);
  }
  setImage(image: FakeNativeImage): void {
    this.image = image;
  }
  setTitle(title: string): void {
    this.title = title;
  }
  setContextMenu(menu: FakeMenu): void {
    this.menu = menu;
  }
  setToolTip(text: string): void {
    this.toolTip = text;
  }
  destroy(): void {
    this.isDestroyed = true;
  }
}

export class FakeNativeImage {
  isTemplate = false;
  constructor(readonly path: string) {}
  setTemplateImage(isTemplate: boolean): void {
    this.isTemplate = isTemplate;
  }
  isEmpty(): boolean {
    return !existsSync(this.path);
  }
}

/** Electron's `nativeTheme`: the test sets the system's theme and says it changed, as the OS would. */
export class FakeNativeTheme extends EventEmitter {
  shouldUseDarkColors = false;
  shouldUseDarkColorsForSystemIntegratedUI = false;
  switchTo(isDark: boolean): void {
    this.shouldUseDarkColors = isDark;
    this.shouldUseDarkColorsForSystemIntegratedUI = isDark;
    this.emit('updated');
  }
}

export class FakeGlobalShortcut {
  readonly registered = new Map<string, () => void>();
  /** Keys another app holds: registering one fails, as the OS refuses it. */
  readonly taken = new Set<string>();
  register(accelerator: string, callback: () => void): boolean {
    if (!/^[\w+]+$/.test(accelerator)) throw new Error(`Failed to parse accelerator ${accelerator}`);
    if (this.taken.has(accelerator)) return false;
    this.registered.set(accelerator, callback);
    return true;
  }
  unregisterAll(): void {
    this.registered.clear();
  }
  isRegistered(accelerator: string): boolean {
    return this.registered.has(accelerator);
  }
  /** The person presses the key, wherever the focus is. */
  press(accelerator: string): void {
    const callback = this.registered.get(accelerator);
    if (!callback) throw new Error(`no global shortcut ${accelerator} is registered`);
    callback();
  }
}

type ProtocolHandler = (request: Request) => Response | Promise<Response>;

export class FakeProtocol {
  readonly privileged: { scheme: string; privileges?: Record<string, boolean> }[] = [];
  readonly handlers = new Map<string, ProtocolHandler>();
  constructor(private readonly isReady: () => boolean) {}
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges?: Record<string, boolean> }[]): void {
    // Electron's rule: Chromium reads the list once, before the app is ready.
    if (this.isReady()) throw new Error('registerSchemesAsPrivileged must be called before the app is ready');
    this.privileged.push(...schemes);
  }
  handle(scheme: string, handler: ProtocolHandler): void {
    if (!this.isReady()) throw new Error('protocol.handle must be called once the app is ready');
    if (this.handlers.has(scheme)) throw new Error(`the scheme ${scheme} is already handled`);
    this.handlers.set(scheme, handler);
  }
  isProtocolHandled(scheme: string): boolean {
    return this.handlers.has(scheme);
  }
}

/** A reversible stand-in for the OS keychain: never plain text on disk, and good enough for a restart. */
export const fakeSafeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from(`sealed:${Buffer.from(plain).toString('base64')}`),
  decryptString: (sealed: Buffer) => {
    const text = sealed.toString();
    if (!text.startsWith('sealed:')) throw new Error('not sealed by this keychain');
    return Buffer.from(text.slice('sealed:'.length), 'base64').toString();
  },
};

type Handler = (...args: never[]) => unknown;

export class FakeSession extends EventEmitter {
  readonly handlers: Record<string, Handler> = {};
  readonly webRequest = {
    onHeadersReceived: (listener: Handler) => (this.handlers.onHeadersReceived = listener),
  };
  setPermissionRequestHandler(handler: Handler): void {
    this.handlers.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: Handler): void {
    this.handlers.permissionCheck = handler;
  }
  setDevicePermissionHandler(handler: Handler): void {
    this.handlers.devicePermission = handler;
  }
}

export class FakeIpcMain {
  readonly handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    // Electron throws on a second handler for a channel; so does this, so a double setup is caught.
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** One-way messages (electron-store listens for its renderer's sendSync); none is sent in these tests. */
  readonly listeners = new Map<string, unknown>();
  on(channel: string, listener: unknown): this {
    this.listeners.set(channel, listener);
    return this;
  }
}
