/**
 * The Electron IPC wire format, shared by the preload and the main process's one `handle()`.
 * Kept free of zod and Electron so the sandboxed preload bundle stays small.
 *
 *   invoke  deputy:command      (channel, input)        → Result<output>
 *   invoke  deputy:subscribe    (subId, channel, input) → Result<null>
 *   invoke  deputy:unsubscribe  (subId)                 → Result<null>
 *   send    deputy:event        (subId, event)            main → renderer, one per stream event
 *   invoke  deputy:shell        (request)               → Result<…>      window actions and shell preferences
 */
import type { DesktopPreferencesChange } from '../../shared/shell';

export const IPC_CHANNELS = {
  command: 'deputy:command',
  subscribe: 'deputy:subscribe',
  unsubscribe: 'deputy:unsubscribe',
  event: 'deputy:event',
  shell: 'deputy:shell',
} as const;

export const SUBSCRIPTION_ID_MAX_CHARS = 64;

/** What a page may ask of the shell itself (not of the Host): its windows and its own preferences. */
export type ShellRequest =
  | { action: 'open-thread'; threadId: string }
  | { action: 'show-main' }
  | { action: 'open-connections' }
  | { action: 'get-desktop' }
  | { action: 'open-agents-folder' }
  | { action: 'change-desktop'; change: DesktopPreferencesChange };
