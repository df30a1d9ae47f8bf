import { ipcMain } from 'electron';
import type { ContractHost } from '../../shared/contract';
import { createIpcHandlers, type IpcInvokeEvent, type SenderCheck } from './ipc-handlers';
import { IPC_CHANNELS } from './ipc-wire';
import { createShellHandler, type ShellActions } from './shell-ipc-handler';
import { isAppUrl } from './windows';

export type { IpcInvokeEvent, IpcSender, SenderCheck } from './ipc-handlers';
export { createIpcHandlers } from './ipc-handlers';

/** A sender is trusted only if it is a top-level page of this app. */
export function isAppSender(event: IpcInvokeEvent): boolean {
  const frame = event.senderFrame;
  // A frame that navigated away or was destroyed mid-call can no longer be identified, so it is not trusted.
  if (!frame) return false;
  // Only top-level documents: an iframe, even one showing our own files, is not a window we opened.
  if (frame.parent !== null) return false;
  // Whatever else a window was made to load (a link, a redirect) must not reach the Host.
  return isAppUrl(frame.url);
}

/** The one place `ipcMain.handle` is called. Returns a function that removes the handlers and ends every stream. */
export function setupIpc(host: ContractHost, isTrustedSender: SenderCheck = isAppSender): () => void {
  const handlers = createIpcHandlers(host, isTrustedSender);
  ipcMain.handle(IPC_CHANNELS.command, (event, channel: unknown, input: unknown) =>
    handlers.command(event, channel, input),
  );
  ipcMain.handle(IPC_CHANNELS.subscribe, (event, subId: unknown, channel: unknown, input: unknown) =>
    handlers.subscribe(event, subId, channel, input),
  );
  ipcMain.handle(IPC_CHANNELS.unsubscribe, (event, subId: unknown) => handlers.unsubscribe(event, subId));
  return () => {
    for (const channel of [IPC_CHANNELS.command, IPC_CHANNELS.subscribe, IPC_CHANNELS.unsubscribe])
      ipcMain.removeHandler(channel);
    handlers.close();
  };
}

/** The shell's own channel (window actions), behind the same sender check. Returns its removal. */
export function setupShellIpc(actions: ShellActions, isTrustedSender: SenderCheck = isAppSender): () => void {
  const handler = createShellHandler(actions, isTrustedSender);
  ipcMain.handle(IPC_CHANNELS.shell, (event, request: unknown) => handler(event, request));
  return () => ipcMain.removeHandler(IPC_CHANNELS.shell);
}
