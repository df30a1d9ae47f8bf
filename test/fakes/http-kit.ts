import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fakes see it: the body read whole, the bearer token picked out. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The parsed JSON body, or undefined when there is none or it does not parse. */
  json: unknown;
  /** The parsed application/x-www-form-urlencoded body (OAuth token endpoints, Slack). */
  form: URLSearchParams;
  accessToken: string | null;
}

export interface FakeResponse {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Wait before answering (a slow service); close() cuts it short. */
  delayMs?: number;
}

export type FakeHandler = (request: FakeRequest) => FakeResponse | null | Promise<FakeResponse | null>;

/**
 * A scripted failure: the next `times` requests whose "METHOD /path" matches get this response instead, or (with
 * `until` and no response) the fake's own answer once `until` settles: a service slow for as long as a test needs.
 */
export interface Fault {
  match: RegExp;
  response?: FakeResponse;
  until?: Promise<unknown>;
  times?: number;
}

export interface FakeServer {
  url: string;
  /** Every request that reached the server, oldest first. */
  requests: FakeRequest[];
  inject(fault: Fault): void;
  close(): Promise<void>;
}

/** Starts a fake on 127.0.0.1 with a random port; handlers are asked in order and the first answer wins. */
export async function startFakeServer(handlers: readonly FakeHandler[]): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const faults: (Fault & { left: number })[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const request = await readRequest(req);
    requests.push(request);
    const key = `${request.method} ${request.path}`;
    const fault = faults.find((candidate) => candidate.left > 0 && candidate.match.test(key));
    let response: FakeResponse | null;
    if (fault) fault.left -= 1;
    // close() does not wait for a held request: its connection is closed with the rest.
    if (fault?.until) await fault.until;
    if (fault?.response) {
      response = fault.response;
    } else {
      response = null;
      for (const handler of handlers) {
        response = await handler(request);
        if (response) break;
      }
    }
    response ??= { status: 404, json: { error: { code: 404, message: `fake: no route for ${key}` } } };
    if (response.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, response.delayMs);
        timers.add(timer);
      });
    }
    send(res, response);
  };

  const server: Server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, { status: 500, json: { error: { code: 500, message: String(error) } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject: (fault) => faults.push({ ...fault, left: fault.times ?? 1 }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readRequest(req: IncomingMessage): Promise<FakeRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const url = new URL(req.url ?? '/', 'http://fake.local');
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    json = undefined;
  }
  const contentType = req.headers['content-type'] ?? '';
  const authorization = req.headers.authorization ?? '';
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body,
    json,
    form: new URLSearchParams(contentType.includes('application/x-www-form-urlencoded') ? text : ''),
    accessToken: authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : null,
  };
}

function send(res: ServerResponse, response: FakeResponse): void {
  if (res.destroyed) return;
  const headers = { ...response.headers };
  let body = response.text ?? '';
  if (response.json !== undefined) {
    body = JSON.stringify(response.json);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

/** Google's error envelope, as its REST APIs return it. */
export function googleError(status: number, message: string, reason = 'error'): FakeResponse {
  const statusName: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    409: 'ALREADY_EXISTS',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  };
  return {
    status,
    json: {
      error: {
        code: status,
        message,
        status: statusName[status] ?? 'UNKNOWN',
        errors: [{ message, reason }],
      },
    },
  };
}
