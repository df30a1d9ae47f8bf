import { EventEmitter } from 'node:events';
import type { BrowserContext, Page } from 'playwright-core';
import { toAppUrl, toPageUrl, withoutHash } from '../app-url';
import { preventable, type FakeApp } from './app';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the windows share within one app run: the browser context, the app, and the records tests read. */
export interface WindowRuntime {
  context: BrowserContext;
  app: FakeApp;
  /** Every window ever created in this run, with the options it was created with. */
  created: FakeBrowserWindow[];
  open: Set<FakeBrowserWindow>;
  focused: FakeBrowserWindow | null;
}

let nextId = 1;

/** Electron's `webContents`, backed by a Playwright page. */
export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  private destroyed = false;
  /** Set by loadURL for the navigation it starts; any other is the page's own, and goes through will-navigate. */
  private expectedNavigation: string | null = null;
  private isNewDocumentPending = false;
  private sendQueue: Promise<unknown> = Promise.resolve();
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' | 'allow' }) | null = null;

  /** The page, once Chromium has opened it (a BrowserWindow is created synchronously; a page is not). */
  pageOrNull: Page | null = null;
  readonly ready: Promise<Page>;

  constructor(pagePromise: Promise<Page>) {
    super();
    this.ready = pagePromise.then((page) => {
      this.pageOrNull = page;
      this.watch(page);
      return page;
    });
  }

  private watch(page: Page): void {
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      // A new document (not a hash change) is what Electron reports as did-navigate, at commit time.
      if (this.isNewDocumentPending) {
        this.isNewDocumentPending = false;
        this.emit('did-navigate', preventable(), toAppUrl(frame.url()));
      } else {
        this.emit('did-navigate-in-page', preventable(), toAppUrl(frame.url()), true);
      }
    });
  }

  /** Called by the context's router for every main-frame navigation request; false cancels it. */
  allowNavigation(pageUrl: string): boolean {
    const appUrl = toAppUrl(pageUrl);
    const isOurs = this.expectedNavigation === appUrl;
    this.expectedNavigation = null;
    if (!isOurs) {
      const event = Object.assign(preventable(), { url: appUrl });
      this.emit('will-navigate', event, appUrl);
      if (event.defaultPrevented) return false;
    }
    this.isNewDocumentPending = true;
    return true;
  }

  async loadURL(url: string): Promise<void> {
    const page = await this.ready;
    const current = this.getURL();
    // Electron navigates within the document when only the fragment changes; the page stays loaded.
    if (current && withoutHash(current) === withoutHash(url) && url.includes('#')) {
      await page.evaluate((hash) => (window.location.hash = hash), new URL(url).hash);
      return;
    }
    this.expectedNavigation = url;
    await page.goto(toPageUrl(url), { waitUntil: 'load' });
    this.emit('did-finish-load');
  }

  getURL(): string {
    const url = this.pageOrNull?.url() ?? '';
    return url === 'about:blank' ? '' : toAppUrl(url);
  }

  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    // One after another, so the page sees events in the order the main process sent them.
    this.sendQueue = Promise.all([this.ready, this.sendQueue])
      .then(([page]) =>
        page.evaluate(
          ([name, values]) => {
            const deliver = (window as unknown as Record<string, unknown>).__deputyHarnessDeliver;
            if (typeof deliver === 'function') deliver(name, values);
          },
          [channel, args] as const,
        ),
      )
      .catch(() => undefined);
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void {
    this.windowOpenHandler = handler;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }
}

/** Electron's `BrowserWindow`, one Chromium page each. */
export class FakeBrowserWindow extends EventEmitter {
  readonly id = nextId++;
  readonly webContents: FakeWebContents;
  private visible = false;
  private destroyed = false;
  private minimized = false;
  private maximized = false;
  private bounds: Bounds;
  private hasShownReady = false;

  constructor(
    readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> },
    page: Promise<Page>,
    private readonly runtime: WindowRuntime,
  ) {
    super();
    const number = (key: string, fallback: number) =>
      typeof options[key] === 'number' ? (options[key] as number) : fallback;
    this.bounds = {
      x: number('x', 0),
      y: number('y', 0),
      width: number('width', 800),
      height: number('height', 600),
    };
    this.webContents = new FakeWebContents(page);
    this.withPage((opened) =>
      opened.setViewportSize({ width: this.bounds.width, height: this.bounds.height }),
    );
    this.webContents.on('did-finish-load', () => {
      if (this.hasShownReady) return;
      this.hasShownReady = true;
      this.emit('ready-to-show');
    });
    runtime.created.push(this);
    runtime.open.add(this);
    runtime.app.emit('web-contents-created', preventable(), this.webContents);
    runtime.app.emit('browser-window-created', preventable(), this);
  }

  /** The Chromium page behind the window; tests drive it as the person would. */
  page(): Promise<Page> {
    return this.webContents.ready;
  }

  private withPage(action: (page: Page) => Promise<unknown>): void {
    void this.webContents.ready.then(action).catch(() => undefined);
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  show(): void {
    this.visible = true;
    this.focus();
  }
  hide(): void {
    this.visible = false;
    if (this.runtime.focused === this) this.blur();
  }
  isVisible(): boolean {
    return this.visible && !this.destroyed;
  }
  focus(): void {
    if (this.runtime.focused === this) return;
    this.runtime.focused?.blur();
    this.runtime.focused = this;
    this.withPage((page) => page.bringToFront());
    this.emit('focus');
  }
  /** The person clicks another app. */
  blur(): void {
    if (this.runtime.focused !== this) return;
    this.runtime.focused = null;
    this.emit('blur');
  }
  isFocused(): boolean {
    return this.runtime.focused === this;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  minimize(): void {
    this.minimized = true;
    this.blur();
  }
  restore(): void {
    this.minimized = false;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  /** The Windows taskbar overlay: what the window was last asked to show there (null: nothing). */
  overlay: { icon: string; description: string } | null = null;
  setOverlayIcon(image: { path: string } | null, description: string): void {
    this.overlay = image ? { icon: image.path, description } : null;
  }
  setBounds(bounds: Partial<Bounds>): void {
    this.bounds = { ...this.bounds, ...bounds };
    this.withPage((page) => page.setViewportSize({ width: this.bounds.width, height: this.bounds.height }));
  }
  getBounds(): Bounds {
    return { ...this.bounds };
  }
  getNormalBounds(): Bounds {
    return this.getBounds();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  close(): void {
    if (this.destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.blur();
    this.runtime.open.delete(this);
    this.webContents.destroy();
    this.withPage((page) => page.close());
    this.emit('closed');
    if (this.runtime.open.size === 0 && !this.runtime.app.isQuitting) {
      this.runtime.app.emit('window-all-closed');
    }
  }
}
