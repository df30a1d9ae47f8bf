/**
 * What the Electron preload offers a page besides the contract (`window.deputyShell`): actions on the
 * app's windows, which only the desktop shell has. In a browser on the headless host it is absent.
 */
export interface DeputyShell {
  /** Shows the main window on this conversation (the quick prompt's "Open in Deputy"). */
  openThread(threadId: string): Promise<void>;
}
