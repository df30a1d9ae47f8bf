import { z } from 'zod';
import { ThreadId } from '../../shared/contract/data';
import type { Result } from '../../shared/contract';
import type { DesktopChangeResult, DesktopPreferencesChange, DesktopSettings } from '../../shared/shell';
import { fail, type IpcInvokeEvent, type SenderCheck } from './ipc-handlers';

// Free of Electron, like ipc-handlers.ts, so the checks are tested with plain objects.

const DesktopChange = z
  .object({
    quickPromptShortcut: z.string().trim().min(1).max(60).optional(),
    showTray: z.boolean().optional(),
    launchAtLogin: z.boolean().optional(),
    notifications: z
      .object({
        approvalNeeded: z.boolean().optional(),
        runFinished: z.boolean().optional(),
        limitReached: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const ShellRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('open-thread'), threadId: ThreadId }).strict(),
  z.object({ action: z.literal('show-main') }).strict(),
  z.object({ action: z.literal('open-connections') }).strict(),
  z.object({ action: z.literal('get-desktop') }).strict(),
  z.object({ action: z.literal('open-agents-folder') }).strict(),
  z.object({ action: z.literal('change-desktop'), change: DesktopChange }).strict(),
]);

export interface ShellActions {
  openThread(threadId: string): void;
  /** The audit viewer's "Back to Deputy", from the window whose webContents has this id. */
  showMain(senderId: number): void;
  /** The quick prompt's way to a missing Gemini key: the main window at Settings → Connections, the prompt hidden. */
  openConnections(): void;
  /** Whether the page with this webContents id is the quick prompt's. */
  isQuickPrompt(senderId: number): boolean;
  desktopSettings(): DesktopSettings;
  changeDesktop(change: DesktopPreferencesChange): DesktopChangeResult;
  /** Shows the person's agents folder (in the data folder) in the file manager. */
  openAgentsFolder(): void;
}

/** The logic behind `deputy:shell`: the same sender check and input parsing as every other handler. */
export function createShellHandler(actions: ShellActions, isTrustedSender: SenderCheck) {
  return (event: IpcInvokeEvent, request: unknown): Result<unknown> => {
    // A page that is not ours (a link followed, an iframe) must not move the app's windows or change its keys.
    if (!isTrustedSender(event)) return fail('forbidden_sender', 'This window may not talk to Deputy.');
    const parsed = ShellRequestSchema.safeParse(request);
    if (!parsed.success) return fail('invalid_input', 'That is not a request the shell understands.');
    const { data } = parsed;
    switch (data.action) {
      case 'open-thread':
        actions.openThread(data.threadId);
        return { ok: true, data: null };
      case 'show-main':
        actions.showMain(event.sender.id);
        return { ok: true, data: null };
      case 'open-connections':
        // Only the quick prompt needs it (the main window opens its own Settings): no other page moves windows so.
        if (!actions.isQuickPrompt(event.sender.id)) {
          return fail('forbidden_sender', 'Only the quick prompt opens Connections this way.');
        }
        actions.openConnections();
        return { ok: true, data: null };
      case 'get-desktop':
        return { ok: true, data: actions.desktopSettings() };
      case 'change-desktop':
        return { ok: true, data: actions.changeDesktop(data.change) };
      case 'open-agents-folder':
        actions.openAgentsFolder();
        return { ok: true, data: null };
    }
  };
}
