import { app, dialog, safeStorage } from 'electron';
import { AGENTS_FOLDER, createHost, type Host } from './host/create-host';
import { applyEndpointPolicy } from './host/endpoint-overrides';
import { installProcessGuard } from './host/process-guard';
import { runtimeProblem } from './host/runtime-check';
import { registerAppScheme, setupAppProtocol } from './shell/app-protocol';
import { setupAppMenu } from './shell/app-menu';
import { setupApprovalNotifications } from './shell/approval-notifications';
import { createApprovalWindows } from './shell/approval-window';
import { listenForDeepLinks, setupDeepLinks, type DeepLink } from './shell/deep-link';
import { setupDesktop } from './shell/desktop';
import { setupIpc, setupShellIpc } from './shell/ipc';
import { openDataSubfolder, openExternal } from './shell/external';
import { openPreferences } from './shell/preferences';
import { createQuickPrompt } from './shell/quick-prompt';
import { setupRunNotifications } from './shell/run-notifications';
import { setupSecurity } from './shell/security';
import {
  backToMain,
  createMainWindow,
  rendererDir,
  showConnections,
  showMainWindow,
  useWindowState,
} from './shell/windows';
import { createSafeStorageCipher } from './vault/cipher';
import { redactError, redactErrorMessage } from './vault/redactor';

// Lifecycle only: each feature sets itself up in its own file.

async function start(): Promise<void> {
  const problem = runtimeProblem();
  if (problem) throw new Error(problem);
  // An exception with no request around it is logged (redacted), not shown as a crash dialog.
  installProcessGuard();
  // Windows shows notifications only for a known AppUserModelID: the installer's shortcut carries the appId
  // of electron-builder.yml; an unpackaged run has only the Electron binary to be known by.
  if (process.platform === 'win32')
    app.setAppUserModelId(app.isPackaged ? 'app.deputy.desktop' : process.execPath);
  await app.whenReady();
  setupAppProtocol(rendererDir());
  setupSecurity();
  // THE SPLIT: the shell's own preferences (windows, tray, shortcut, notifications, login) live in
  // electron-store beside the data; the core's settings (and the side-effects pause) stay in SQLite, shared
  // with the headless host (see preferences.ts).
  const preferences = openPreferences(app.getPath('userData'));
  useWindowState({
    load: () => preferences.get().mainWindow,
    save: (mainWindow) => preferences.update((current) => ({ ...current, mainWindow })),
  });
  const endpoints = applyEndpointPolicy(process.env, app.isPackaged);
  if (endpoints.notice) console.warn(`[deputy] ${endpoints.notice}`);
  const host = await createHost({
    dataDir: app.getPath('userData'),
    env: endpoints.env,
    // Secrets are sealed by the OS keychain; the vault refuses to store them when only a fixed key is on offer.
    cipher: createSafeStorageCipher(safeStorage, process.platform),
    // Sign-in pages open in the system browser, never inside Deputy, so the user sees the real address bar.
    openExternal: (url) => void openExternal(url, 'sign-in'),
  });
  closeHostOnQuit(host);
  setupIpc(host);
  const approvalWindows = createApprovalWindows();
  const quickPrompt = createQuickPrompt();
  const stopApprovalNotifications = setupApprovalNotifications(host, {
    approvalWindows,
    isEnabled: () => preferences.get().notifications.approvalNeeded,
  });
  const stopRunNotifications = setupRunNotifications(host, {
    preferences: preferences.get,
    openThread: (threadId) => showMainWindow(threadId),
  });
  const desktop = setupDesktop(host, {
    preferences,
    quickPrompt,
    openDeputy: () => showMainWindow(),
    openApproval: (approvalId) => approvalWindows.open(approvalId),
  });
  setupShellIpc({
    openThread: (threadId) => {
      quickPrompt.hide();
      showMainWindow(threadId);
    },
    showMain: (senderId) => backToMain(senderId),
    openConnections: () => {
      quickPrompt.hide();
      showConnections();
    },
    isQuickPrompt: (senderId) => quickPrompt.isItsPage(senderId),
    desktopSettings: () => desktop.settings(),
    changeDesktop: (change) => desktop.change(change),
    openAgentsFolder: () => void openDataSubfolder(app.getPath('userData'), AGENTS_FOLDER),
  });
  setupAppMenu(() => quickPrompt.show());
  // On quit the streams end before the Host's database closes, and no notification is left offering
  // buttons that nothing would answer.
  app.once('will-quit', () => {
    stopApprovalNotifications();
    stopRunNotifications();
    desktop.stop();
  });
  createMainWindow();
  const openDeepLink = (link: DeepLink): void => {
    if (link.kind === 'approval') approvalWindows.open(link.approvalId);
    else showMainWindow(link.threadId);
  };
  // After the main window, so a link that started the app opens over it rather than as a second one.
  const openFromArgv = setupDeepLinks(openDeepLink);
  // Registered only now, so a window never opens before the IPC it needs is in place.
  app.on('second-instance', (_event, argv) => {
    showMainWindow();
    openFromArgv(argv);
  });
  // macOS keeps the app running with no window; clicking the dock icon brings one back.
  app.on('activate', () => showMainWindow());
}

/** Lets the Host finish its writes and close the database before the process exits. */
function closeHostOnQuit(host: Host): void {
  let isClosing = false;
  let isClosed = false;
  app.on('will-quit', (event) => {
    if (isClosed) return;
    event.preventDefault();
    if (isClosing) return;
    isClosing = true;
    void host
      .close()
      .catch((error: unknown) => console.error('[main] the host did not close cleanly', redactError(error)))
      .finally(() => {
        isClosed = true;
        app.quit();
      });
  });
}

// Before anything else: Chromium reads the list of privileged schemes once, as it starts.
registerAppScheme();
// Before ready too: on macOS the link that launches Deputy arrives during launch (kept until a window exists).
listenForDeepLinks();

// A second copy would open the same database and race the first on every write: it quits, and the
// first one shows its window instead ('second-instance').
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  start().catch((error: unknown) => {
    console.error('[main] Deputy could not start', redactError(error));
    dialog.showErrorBox('Deputy could not start', redactErrorMessage(error));
    app.exit(1);
  });
}
