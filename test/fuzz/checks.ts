/** What makes an answer a finding; each returns a reason, or null when the answer is acceptable. */

// A stack frame ("at fn (file.ts:1:2)") or a path on this machine has no place in anything a client reads.
const LEAKS = [/\n\s+at .+[:(]\d+:\d+\)?/, /(?:\/work\/|\/root\/|\/home\/|\/tmp\/|node_modules|\.tsx?:\d+)/];

export function leakIn(text: string): string | null {
  for (const pattern of LEAKS) {
    const match = pattern.exec(text);
    if (match) return `leaks "${match[0].trim().slice(0, 80)}"`;
  }
  return null;
}

/** An HTTP answer: never 5xx, never silence, errors always the JSON error body. */
export function checkHttpAnswer(
  status: number,
  contentType: string | undefined,
  body: string,
  ending?: string,
): string | null {
  if (status === 0) return `no answer at all (${ending ?? 'closed'})`;
  // A service of the person's that is down (Slack, Google) or not set up (no Gemini key) are the 5xx Deputy
  // gives, and each says so by its code.
  const isServiceAnswer =
    (status === 502 && body.includes('"code":"service_unavailable"')) ||
    (status === 503 && /"code":"model_(not_configured|key_rejected)"/.test(body));
  if (status >= 500 && !isServiceAnswer) return `status ${status}: ${body.slice(0, 200)}`;
  if (status >= 400 && status !== 101) {
    if (!contentType?.startsWith('application/json'))
      return `error ${status} without a JSON body: ${body.slice(0, 100)}`;
    const problem = errorBodyProblem(body);
    if (problem) return `error ${status}: ${problem}`;
  }
  return leakIn(body);
}

function errorBodyProblem(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `body is not JSON: ${body.slice(0, 100)}`;
  }
  const error = (parsed as { ok?: unknown; error?: { code?: unknown; message?: unknown } }).error;
  // The MCP endpoint answers as the MCP protocol says: a JSON-RPC error object.
  const isJsonRpcError =
    (parsed as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
    typeof error?.code === 'number' &&
    typeof error.message === 'string';
  if (isJsonRpcError) return null;
  if (
    (parsed as { ok?: unknown }).ok !== false ||
    typeof error?.code !== 'string' ||
    typeof error.message !== 'string'
  )
    return `not the {ok:false,error:{code,message}} shape: ${body.slice(0, 100)}`;
  if (error.code === 'internal') return `internal error: ${error.message}`;
  return null;
}

/** A contract result (IPC, or a WebSocket reply): a value or a typed error, never `internal`. */
export function checkResult(result: unknown): string | null {
  if (result === null || typeof result !== 'object') return 'not a result object';
  const { ok, error } = result as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  if (ok === true) return null;
  if (ok !== false || typeof error?.code !== 'string' || typeof error.message !== 'string')
    return 'malformed result';
  if (error.code === 'internal') return `internal error: ${String(error.message)}`;
  return leakIn(String(error.message));
}
