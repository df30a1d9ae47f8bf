import type { DeputyClient } from '../../../shared/contract';

declare global {
  interface Window {
    /** Present only inside the Electron app, where the preload exposes the contract over IPC. */
    deputy?: DeputyClient;
  }
}
