import { describe, expect, it, vi } from 'vitest';
import type { IpcInvokeEvent } from '../../../electron/shell/ipc-handlers';
import { createShellHandler } from '../../../electron/shell/shell-ipc-handler';

const event = {
  senderFrame: { url: 'app://deputy/index.html#/quick', parent: null },
} as unknown as IpcInvokeEvent;

describe('deputy:shell', () => {
  it('opens a conversation for a trusted page with a valid id', () => {
    const openThread = vi.fn();
    const handler = createShellHandler({ openThread }, () => true);
    expect(handler(event, { action: 'open-thread', threadId: 'thread-1' })).toEqual({ ok: true, data: null });
    expect(openThread).toHaveBeenCalledWith('thread-1');
  });

  it('refuses a page that is not ours before looking at the request', () => {
    const openThread = vi.fn();
    const handler = createShellHandler({ openThread }, () => false);
    expect(handler(event, { action: 'open-thread', threadId: 'thread-1' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(openThread).not.toHaveBeenCalled();
  });

  it.each([
    undefined,
    'open-thread',
    { action: 'open-thread' },
    { action: 'open-thread', threadId: '../x' },
    { action: 'open-thread', threadId: 'a'.repeat(129) },
    { action: 'open-thread', threadId: 't', extra: true },
    { action: 'quit' },
  ])('refuses %j', (request) => {
    const openThread = vi.fn();
    const handler = createShellHandler({ openThread }, () => true);
    expect(handler(event, request)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(openThread).not.toHaveBeenCalled();
  });
});
