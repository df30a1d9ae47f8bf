import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { answerEmbedding, embeddingMethod } from './embeddings';
import { answerModelsList, DEFAULT_FAKE_MODELS, isModelsList } from './models';
import { parseBody, parseRoute, type Route } from './request';
import type { FakeChunk, FakeGemini, FakeGeminiOptions, FakeStep, RecordedRequest } from './types';
import { chunkToResponse, errorBody, mergeChunks, sseEvent } from './wire';

/** A local stand-in for the Gemini REST API that answers each request with the next scripted step. */
export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const steps: FakeStep[] = [];
  const requests: RecordedRequest[] = [];
  const embedRequests: FakeGemini['embedRequests'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const fallback = options.fallback ?? noScriptedResponse;
  const models: FakeGemini['models'] = {
    list: options.models ?? DEFAULT_FAKE_MODELS,
    requests: 0,
    isDown: false,
    isKeyRejected: false,
  };
  let isClosed = false;
  let inFlight = 0;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const writeChunk = (res: ServerResponse, route: Route, chunk: FakeChunk, index: number): Promise<void> =>
    new Promise((resolve) => {
      const sentAt = process.hrtime.bigint();
      res.write(sseEvent(chunkToResponse(chunk, route.model)), () => resolve());
      options.onChunkSent?.({ index, sentAt });
    });

  /** Waits for the chunk's hold, if it has one, or for the response to close, whichever comes first. */
  const held = (res: ServerResponse, chunk: FakeChunk): Promise<void> =>
    chunk.hold === undefined || res.closed
      ? Promise.resolve()
      : Promise.race([chunk.hold.wait(), new Promise<void>((resolve) => res.once('close', resolve))]);

  const stream = async (res: ServerResponse, route: Route, chunks: FakeChunk[], gapMs = 0): Promise<void> => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0 && gapMs > 0) await wait(gapMs);
      await held(res, chunk);
      if (isClosed || res.destroyed) return;
      await writeChunk(res, route, chunk, index);
    }
  };

  const run = async (step: FakeStep, res: ServerResponse, route: Route): Promise<void> => {
    const isStream = route.method === 'streamGenerateContent';
    switch (step.kind) {
      case 'reply':
        if (!isStream) {
          for (const chunk of step.chunks) await held(res, chunk);
          if (isClosed || res.destroyed) return;
          return sendJson(res, 200, chunkToResponse(mergeChunks(step.chunks), route.model));
        }
        await stream(res, route, step.chunks, step.gapMs);
        res.end();
        return;
      case 'status':
        return sendJson(
          res,
          step.status,
          step.body ?? errorBody(step.status, defaultMessage(step.status)),
          step.headers,
        );
      case 'hang':
        return; // close() tears the connection down.
      case 'stall':
        await stream(res, route, step.chunks);
        return;
      case 'cut':
        if (isStream) await stream(res, route, step.chunks);
        else await writeRaw(res, 'application/json', '{"candidates": [');
        res.socket?.destroy();
        return;
      case 'malformed':
        if (!isStream) return sendRaw(res, 200, 'application/json', '{"candidates": [ not json');
        await writeRaw(res, 'text/event-stream', 'data: {"candidates": [ not json\r\n\r\n');
        res.end();
        return;
      case 'delay':
        await wait(step.ms);
        if (!isClosed) await run(step.step, res, route);
        return;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (isModelsList(req.method, req.url ?? '')) {
      models.requests += 1;
      if (headerValue(req, 'x-goog-api-key') === null)
        return sendJson(res, 403, errorBody(403, "Method doesn't allow unregistered callers."));
      if (models.isDown) return sendJson(res, 503, errorBody(503, 'The service is currently unavailable.'));
      if (models.isKeyRejected) {
        const { error } = errorBody(400, 'API key not valid. Please pass a valid API key.');
        const reason = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' };
        return sendJson(res, 400, { error: { ...error, details: [reason] } });
      }
      return answerModelsList(res, req.url ?? '', models.list);
    }
    // Embeddings are answered at once, deterministically, and never consume a scripted step.
    const embedding = req.method === 'POST' ? embeddingMethod(req.url ?? '') : null;
    if (embedding) {
      embedRequests.push({ method: embedding, apiKey: headerValue(req, 'x-goog-api-key') });
      if (headerValue(req, 'x-goog-api-key') === null)
        return sendJson(res, 403, errorBody(403, "Method doesn't allow unregistered callers."));
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, errorBody(400, 'fake gemini: the body is not JSON'));
      }
      return sendJson(res, 200, answerEmbedding(embedding, json));
    }
    const route = req.method === 'POST' ? parseRoute(req.url ?? '') : null;
    if (route === null)
      return sendJson(res, 404, errorBody(404, `fake gemini: no route for ${req.method} ${req.url}`));
    const body = parseBody(raw);
    if (body === null)
      return sendJson(res, 400, errorBody(400, 'fake gemini: the body is not a GenerateContentRequest'));
    const apiKey = headerValue(req, 'x-goog-api-key');
    const recorded: RecordedRequest = { ...route, apiKey, body };
    requests.push(recorded);
    // The real API refuses callers without a key in the same way.
    if (apiKey === null)
      return sendJson(res, 403, errorBody(403, "Method doesn't allow unregistered callers."));
    await run(steps.shift() ?? fallback(recorded), res, route);
  };

  const server = createServer((req, res) => {
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
    });
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `fake gemini crashed: ${String(error)}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('fake gemini: not listening on a TCP port');

  return {
    url: `http://${address.address}:${address.port}`,
    models,
    requests,
    embedRequests,
    script: (...more) => {
      steps.push(...more);
    },
    pending: () => steps.length,
    inFlight: () => inFlight,
    close: async () => {
      isClosed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function noScriptedResponse(): FakeStep {
  return { kind: 'status', status: 500, body: errorBody(500, 'fake gemini: no scripted response') };
}

function defaultMessage(status: number): string {
  if (status === 429) return 'Resource has been exhausted (e.g. check quota).';
  if (status === 401 || status === 403) return 'API key not valid. Please pass a valid API key.';
  if (status >= 500) return 'An internal error has occurred.';
  return `fake gemini: scripted status ${status}`;
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendRaw(res, status, 'application/json; charset=UTF-8', JSON.stringify(body), headers);
}

function sendRaw(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': contentType, ...headers });
  res.end(body);
}

function writeRaw(res: ServerResponse, contentType: string, text: string): Promise<void> {
  res.writeHead(200, { 'content-type': contentType });
  return new Promise((resolve) => res.write(text, () => resolve()));
}
