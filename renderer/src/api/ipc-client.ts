import type { DeputyClient } from '../../../shared/contract';
import { toClientError } from './client-error';

/**
 * `window.deputy` is already a DeputyClient; this wrapper only makes its rejections look like the
 * WebSocket client's, so the UI handles one error shape.
 */
export function createIpcClient(bridge: DeputyClient): DeputyClient {
  return {
    invoke: async (channel, input) => {
      try {
        return await bridge.invoke(channel, input);
      } catch (error) {
        throw toClientError(error);
      }
    },
    on: (channel, input, listener, options) => bridge.on(channel, input, listener, options),
  };
}
