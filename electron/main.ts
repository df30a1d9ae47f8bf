import { app, dialog, safeStorage } from 'electron';
import { createHost, type Host } from './host/create-host';
import { applyEndpointPolicy } from './host/endpoint-overrides';
import { installProcessGuard } from './host/process-guard';
import { runtimeProblem } from './host/runtime-check';
import { setupApprovalNotifications } from './shell/approval-notifications';
import { createApprovalWindows } from './shell/approval-window';
import { setupIpc } from './shell/ipc';
import { openExternal } from './shell/external';
import { setupSecurity } from './shell/security';
import { createMainWindow, showMainWindow } from './shell/windows';
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
  setupSecurity();
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
  const stopApprovalNotifications = setupApprovalNotifications(host, {
    approvalWindows: createApprovalWindows(),
  });
  // On quit the stream ends before the Host's database closes, and no notification is left offering
  // buttons that nothing would answer.
  app.once('will-quit', stopApprovalNotifications);
  createMainWindow();
  // Registered only now, so a window never opens before the IPC it needs is in place.
  app.on('second-instance', () => showMainWindow());
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
