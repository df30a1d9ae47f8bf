import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The conformance suite cannot send a bearer token: this loopback proxy adds one and passes everything else on.
 * The Host and Origin the suite sends are mapped to Deputy's port only when they name the proxy's own loopback
 * address; any other value (a rebound DNS name) reaches Deputy unchanged, so its own guard answers it.
 */
export async function startBearerProxy(target: { port: number; token: string }): Promise<{
  url: string;
  close: () => Promise<void>;
}> {
  let proxyPort = 0;
  const mapHost = (value: string | undefined): string | undefined =>
    value?.replace(new RegExp(`^(localhost|127\\.0\\.0\\.1):${proxyPort}$`), `127.0.0.1:${target.port}`);
  const mapOrigin = (value: string | undefined): string | undefined =>
    value?.replace(
      new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${proxyPort}$`),
      `http://127.0.0.1:${target.port}`,
    );
  const server: Server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${target.token}` };
    const host = mapHost(incoming.headers.host);
    if (host) headers.host = host;
    const origin = mapOrigin(incoming.headers.origin);
    if (origin) headers.origin = origin;
    const forwarded = request(
      { host: '127.0.0.1', port: target.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxyPort = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${proxyPort}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
