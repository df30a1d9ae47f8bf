import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorBody } from '../../shared/contract';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/**
 * Who may talk to the host, decided from headers alone and before the token is looked at.
 *
 * `Host` must name the loopback address and the port we listen on. A page on evil.example whose DNS
 * record is switched to 127.0.0.1 (DNS rebinding) reaches our socket with `Host: evil.example`, so
 * that is refused however the request is authenticated. `Origin`, when a browser sends one, must be one
 * of our own origins; it is compared with that fixed list, never with the request's own `Host` header,
 * which the same attacker controls.
 */
export function createLoopbackGuard(port: number): (headers: IncomingHttpHeaders) => ErrorBody | null {
  const hosts = new Set(LOOPBACK_NAMES.map((name) => `${name}:${port}`));
  const origins = new Set(LOOPBACK_NAMES.map((name) => `http://${name}:${port}`));
  return (headers) => {
    const host = headers.host?.toLowerCase();
    if (!host || !hosts.has(host)) {
      return {
        code: 'wrong_host',
        message: `Deputy answers only requests addressed to ${[...hosts].join(', ')}.`,
      };
    }
    const origin = headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return { code: 'forbidden_sender', message: 'Only Deputy’s own pages may call this host.' };
    }
    return null;
  };
}
