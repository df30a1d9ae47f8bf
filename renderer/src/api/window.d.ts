import type { DeputyClient } from '../../../shared/contract';
import type { DeputyShell } from '../../../shared/shell';

declare global {
  interface Window {
    /** Present only inside the Electron app, where the preload exposes the contract over IPC. */
    deputy?: DeputyClient;
    /** The desktop shell's window actions; present only inside the Electron app. */
    deputyShell?: DeputyShell;
  }
}
