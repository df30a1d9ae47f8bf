/**
 * The script every window's page runs before its own: the BUILT preload bundle (out/preload/preload.cjs),
 * given the `require('electron')` a sandboxed preload gets, with a `contextBridge` and an `ipcRenderer`
 * that reach the real `ipcMain` handlers through a Playwright binding.
 *
 * Not a real isolated world: the preload runs in the page's own world here. The binding is taken out of
 * `window` before any page script runs, so the page reaches the main process only through what the
 * preload exposed, as in Electron.
 */
export const INVOKE_BINDING = '__deputyHarnessInvoke';
export const INPUT_BINDING = '__deputyHarnessInput';
export const OPEN_BINDING = '__deputyHarnessOpen';
export const DELIVER = '__deputyHarnessDeliver';

export function pageBridgeScript(preloadSource: string): string {
  return `(() => {
  const invoke = window.${INVOKE_BINDING};
  const input = window.${INPUT_BINDING};
  const open = window.${OPEN_BINDING};
  delete window.${INVOKE_BINDING};
  delete window.${INPUT_BINDING};
  delete window.${OPEN_BINDING};
  // Electron runs the preload in top-level frames only (nodeIntegrationInSubFrames is off).
  if (window.top !== window) return;
  const listeners = new Map();
  Object.defineProperty(window, '${DELIVER}', {
    value: (channel, args) => {
      for (const listener of listeners.get(channel) ?? []) listener({}, ...args);
    },
  });
  // Electron's before-input-event: the main process sees every key before the page does.
  window.addEventListener('keydown', (event) => {
    void input({ type: 'keyDown', key: event.key });
  }, true);
  // A target=_blank link with rel=noopener opens a popup with no opener, which cannot be traced back to its window
  // (launch.ts's popup path): in Electron the window-open handler is asked all the same, so it is asked here.
  window.addEventListener('click', (event) => {
    if (event.defaultPrevented || !(event.target instanceof Element)) return;
    const link = event.target.closest('a[target="_blank"][href]');
    if (!link || !link.relList.contains('noopener')) return;
    event.preventDefault();
    void open(link.href);
  });
  const ipcRenderer = {
    invoke: (channel, ...args) => invoke(channel, args),
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, []);
      listeners.get(channel).push(listener);
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposeInMainWorld(key, api) {
      Object.defineProperty(window, key, { value: Object.freeze(api), enumerable: true });
    },
  };
  const require = (id) => {
    if (id === 'electron') return { contextBridge, ipcRenderer };
    throw new Error('a sandboxed preload cannot require ' + id);
  };
  const module = { exports: {} };
  (function (require, module, exports) {
${preloadSource}
  })(require, module, module.exports);
})();`;
}
