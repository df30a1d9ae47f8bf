/**
 * The WebSocket's names, apart from its schemas so a client can open the socket without loading zod first.
 * The bearer token travels as a subprotocol (`deputy.v1`, `bearer.<token>`), because browsers cannot set headers.
 */
export const WS_PROTOCOL = 'deputy.v1';
export const WS_TOKEN_PREFIX = 'bearer.';
export const WS_PATH = '/ws';
