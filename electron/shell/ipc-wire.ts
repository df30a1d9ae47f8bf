/**
 * The Electron IPC wire format, shared by the preload and the main process's one `handle()`.
 * Kept free of zod and Electron so the sandboxed preload bundle stays small.
 *
 *   invoke  deputy:command      (channel, input)        → Result<output>
 *   invoke  deputy:subscribe    (subId, channel, input) → Result<null>
 *   invoke  deputy:unsubscribe  (subId)                 → Result<null>
 *   send    deputy:event        (subId, event)            main → renderer, one per stream event
 */
export const IPC_CHANNELS = {
  command: 'deputy:command',
  subscribe: 'deputy:subscribe',
  unsubscribe: 'deputy:unsubscribe',
  event: 'deputy:event',
} as const;

export const SUBSCRIPTION_ID_MAX_CHARS = 64;
