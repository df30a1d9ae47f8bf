import { z } from 'zod';
import { ThreadId } from '../../shared/contract/data';
import type { Result } from '../../shared/contract';
import { fail, type IpcInvokeEvent, type SenderCheck } from './ipc-handlers';

// Free of Electron, like ipc-handlers.ts, so the checks are tested with plain objects.

const ShellRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('open-thread'), threadId: ThreadId }).strict(),
]);

export interface ShellActions {
  openThread(threadId: string): void;
}

/** The logic behind `deputy:shell`: the same sender check and input parsing as every other handler. */
export function createShellHandler(actions: ShellActions, isTrustedSender: SenderCheck) {
  return (event: IpcInvokeEvent, request: unknown): Result<null> => {
    // A page that is not ours (a link followed, an iframe) must not move the app's windows.
    if (!isTrustedSender(event)) return fail('forbidden_sender', 'This window may not talk to Deputy.');
    const parsed = ShellRequestSchema.safeParse(request);
    if (!parsed.success) return fail('invalid_input', 'That is not a request the shell understands.');
    actions.openThread(parsed.data.threadId);
    return { ok: true, data: null };
  };
}
