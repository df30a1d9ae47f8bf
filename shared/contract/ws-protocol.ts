import { z } from 'zod';
import type { ErrorBody } from './errors';

/**
 * The WebSocket carries the same contract as IPC. The client sends commands and subscriptions,
 * each with its own id; the server answers each command once and tags stream events with the subscription id.
 * The bearer token travels as a subprotocol (`deputy.v1`, `bearer.<token>`), because browsers cannot set headers.
 * A message the server refuses is answered on its id, unless it has no usable id or its id is in use (a live
 * subscription, a command not yet answered): then the refusal is an `error`, tied to no id, which names that id in
 * `refusedId` (and quotes it in its message), so it is never read as the answer that id still has coming.
 */
export { WS_PATH, WS_PROTOCOL, WS_TOKEN_PREFIX } from './ws-names';

export const WsClientMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    id: z.string().min(1).max(64),
    channel: z.string(),
    input: z.unknown(),
  }),
  z.object({
    kind: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    channel: z.string(),
    input: z.unknown(),
  }),
  z.object({ kind: z.literal('unsubscribe'), id: z.string().min(1).max(64) }),
]);
export type WsClientMessage = z.infer<typeof WsClientMessage>;

export type WsServerMessage =
  | { kind: 'reply'; id: string; ok: true; data: unknown }
  | { kind: 'reply'; id: string; ok: false; error: ErrorBody }
  | { kind: 'event'; id: string; event: unknown }
  | { kind: 'error'; error: ErrorBody; refusedId?: string };
