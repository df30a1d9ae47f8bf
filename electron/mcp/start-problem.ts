import { statSync } from 'node:fs';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../shared/contract';
import { redactErrorMessage, redactSecrets } from '../vault/redactor';
import { LineBuffer, READ_PAST_CUT, shownLine } from './line-buffer';
import { quoted } from '../../shared/quote-words';
import { duration } from '../../shared/duration-words';
import { isAskingToWait } from './retry-after';
import type { FailedStartKind } from './start-tally';

const KEPT_LINES = 20;
const MAX_QUOTE = 300;
/** A line that says what went wrong, rather than a stack frame or a version banner. */
const TELLING = /error|not found|no such|cannot|can't|could not|denied|missing|invalid|failed|usage/i;

/**
 * What a server printed on stderr while it started, so that a server that exits at once can be quoted: its own
 * words ("Error: ENOENT: no such file or directory, stat '/Users/me/Docs'") say more than "Connection closed".
 */
export class StartOutput {
  private lines: string[] = [];
  /** A line that came in two chunks is quoted whole, not as its two halves. */
  private readonly pending = new LineBuffer(MAX_QUOTE + READ_PAST_CUT);

  write(chunk: string): void {
    // Kept past the quote's length, so a secret at its end is taken out whole (shownLine).
    const lines = this.pending.push(chunk).map((line) => line.trim().slice(0, MAX_QUOTE + READ_PAST_CUT));
    this.lines = [...this.lines, ...lines.filter((line) => line !== '')].slice(-KEPT_LINES);
  }

  /** The last line that reads like a reason (else the last line that is not a stack frame), or null. */
  reason(): string | null {
    const said = [...this.lines, this.pending.rest.trim()].filter((line) => line !== '');
    const candidates = said.filter((line) => !/^at\s/.test(line));
    const line = candidates.findLast((candidate) => TELLING.test(candidate)) ?? candidates.at(-1);
    return line === undefined ? null : shownLine(line, MAX_QUOTE);
  }
}

/**
 * Why a server did not start, in words a person can act on: which program or folder is missing, what the server
 * said as it exited, or what the address answered. The raw error goes to the server's log, not here.
 */
export function startProblem(
  error: unknown,
  config: McpServerConfig,
  said: string | null,
  timeoutMs: number,
  /** The wait it asked for (see `asksToWait`), if it did. */
  waitMs: number | null = null,
): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return `It did not answer within ${Math.round(timeoutMs / 1_000)} s. Check that the ${config.transport === 'stdio' ? 'command starts' : 'address is'} an MCP server.`;
  return config.transport === 'stdio'
    ? stdioProblem(error, config, said)
    : httpProblem(error, config.url, waitMs);
}

/**
 * Why a server that answered Deputy's first requests then stopped within moments did not start, in its own words if
 * it printed any (its exit code is not known here; its Log has all it printed).
 */
export function stoppedRightAfterStart(name: string, said: string | null): string {
  const stopped = `The MCP server ${quoted(name)} stopped right after it started`;
  return said ? `${stopped}, saying: ${said}` : `${stopped}, without saying why. Its Log may say more.`;
}

function stdioProblem(error: unknown, config: McpServerConfig, said: string | null): string {
  const code = errorCode(error);
  // Node says "spawn node ENOENT" when the working folder is missing, which reads as if the program were.
  if ((code === 'ENOENT' || code === 'ENOTDIR') && config.cwd && !isFolder(config.cwd))
    return `Its working folder ${config.cwd} does not exist.`;
  if (code === 'ENOENT')
    return `Deputy could not find the program ${quoted(config.command)}. Check that it is installed, or give its full path.`;
  if (code === 'EACCES')
    return `Deputy may not run ${quoted(config.command)}: it is not a program, or it is not allowed to run.`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return said
      ? `It stopped before it answered, saying: ${said}`
      : 'It stopped before it answered, without saying why. Check the command and its arguments.';
  return redactErrorMessage(error);
}

function httpProblem(error: unknown, url: string, waitMs: number | null): string {
  // The address is named by its origin alone: some servers take their key in the query, others in the path
  // (`/s/<key>/mcp`), and this reason is also the answer a call to the server gets, written to the ledger and told
  // to the model. The card in Settings shows the whole address just above it.
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const where = parsed ? parsed.origin : 'its address';
  if (error instanceof StreamableHTTPError && error.code !== undefined) {
    if (isRefusal(error))
      return `The server at ${where} refused Deputy (HTTP ${error.code}). Check the token or headers it needs.`;
    if (error.code === 404) return `Nothing at ${where} answers MCP requests (HTTP 404). Check the address.`;
    const forNow = FOR_NOW[error.code];
    const when =
      waitMs === null
        ? 'Deputy keeps trying'
        : `it asked Deputy to try again in ${duration(waitMs)}, and Deputy will`;
    if (forNow) return `The server at ${where} answered HTTP ${error.code}: ${forNow}; ${when}.`;
    return `The server at ${where} answered with an error (HTTP ${error.code}).`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const causeCode = errorCode(cause);
  if (causeCode === 'ENOTFOUND' || causeCode === 'EAI_AGAIN')
    return `Deputy could not find the host ${parsed?.hostname ?? ''}. Check the address.`;
  if (causeCode === 'ECONNREFUSED')
    return `Nothing is listening at ${where}. Check that the server is running and that the address is right.`;
  const detail = cause instanceof Error ? cause.message : redactErrorMessage(error);
  return `Deputy could not reach ${where} (${redactSecrets(detail)}).`;
}

/**
 * Answers that say the server is there but cannot answer for now (overloaded, being deployed, behind a gateway that
 * lost it, rate limiting): a few bad seconds, not a wrong address or token, so they are not counted as failed starts.
 */
const FOR_NOW: Partial<Record<number, string>> = {
  429: 'it has had too many requests for now',
  502: 'it is not available right now (the gateway in front of it could not reach it)',
  503: 'it is not available right now',
  504: 'it is not available right now (the gateway in front of it waited for it in vain)',
};

/**
 * Whether the server's address refused Deputy (HTTP 401 or 403): the secret Deputy sends it (a token in a header)
 * is wrong, or missing, and its card offers to replace it.
 */
export function isRefusal(error: unknown): boolean {
  return error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403);
}

/** Whether the address answered 429 or 503, whose Retry-After, if it sent one, says when to start it again. */
export function asksToWait(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && isAskingToWait(error.code);
}

/**
 * How the tally counts a start that failed with `error`: one that may pass is not counted; an HTTP 500 is, yet waited
 * longer for than others, since some hosts answer it for a while as a server boots (see DEFAULT_BACKOFF).
 */
export function failedStartKind(error: unknown, config: McpServerConfig): FailedStartKind {
  if (mayPass(error, config)) return 'may pass';
  return error instanceof StreamableHTTPError && error.code === 500 ? 'server error' : 'counted';
}

/** Node's and undici's codes for an address not reached at all: no answer came, so none can be judged. */
const UNREACHED = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Whether a server's start failed in a way that may pass by itself: its address could not be reached (its host not
 * found, nothing listening, the network down: the Wi-Fi comes back, the laptop wakes), or it answered that it
 * cannot answer for now (HTTP 429, 502, 503, 504). That is not counted as a failed start, as a server that answered
 * wrongly (401, 404, 500: see failedStartKind) or a program that did not start is: it is retried, with the same
 * growing delay, for as long as it takes.
 */
export function mayPass(error: unknown, config: McpServerConfig): boolean {
  if (config.transport !== 'http') return false;
  if (error instanceof StreamableHTTPError)
    return error.code !== undefined && FOR_NOW[error.code] !== undefined;
  const code = errorCode(error instanceof Error ? error.cause : undefined);
  return code !== undefined && UNREACHED.has(code);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
