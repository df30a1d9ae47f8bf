/**
 * The Electron IPC wire format, shared by the preload and the main process's one `handle()`.
 * Kept free of zod and Electron so the sandboxed preload bundle stays small.
 *
 *   invoke  deputy:command      (channel, input)        → Result<output>
 *   invoke  deputy:subscribe    (subId, channel, input) → Result<null>
 *   invoke  deputy:unsubscribe  (subId)                 → Result<null>
 *   send    deputy:event        (subId, event)            main → renderer, one per stream event
 *   invoke  deputy:shell        (request)               → Result<null>   window actions, not the Host's
 */
export const IPC_CHANNELS = {
  command: 'deputy:command',
  subscribe: 'deputy:subscribe',
  unsubscribe: 'deputy:unsubscribe',
  event: 'deputy:event',
  shell: 'deputy:shell',
} as const;

export const SUBSCRIPTION_ID_MAX_CHARS = 64;

/** What a page may ask of the shell itself (not of the Host): today, to continue a conversation in the main window. */
export interface ShellRequest {
  action: 'open-thread';
  threadId: string;
}
