import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  MCP_START_ATTEMPTS,
  type McpSecrets,
  type McpServerConfig,
  type McpServerState,
} from '../../shared/contract';
import { ToolError } from '../tools/tool';
import type { McpToolSpec } from '../tools/mcp/mcp-tool';
import { redactErrorMessage } from '../vault/redactor';
import type { BoundedLog } from './bounded-log';
import { callError, reconnecting, stoppedError, type StopReason } from './call-errors';
import { openClient } from './mcp-transport';
import { descendantsOf, stopLeftovers, withinExitWait } from './process-tree';
import {
  asksToWait,
  failedStartKind,
  isRefusal,
  StartOutput,
  startProblem,
  stoppedRightAfterStart,
} from './start-problem';
import { TOO_LARGE_MESSAGE } from './capped-fetch';
import { StartTally, type Backoff, type FailedStartKind } from './start-tally';
import { listTools } from './tool-listing';
import { quoted } from '../../shared/quote-words';
import { asSentence } from '../../shared/rejection-words';

/** How long a server may take to start and answer `initialize` and `tools/list`. */
const START_TIMEOUT_MS = 30_000;
/**
 * A call, start included, ends within this, under the registry's 60 s limit: the registry's own timeout counts as
 * transient and is retried, and a retried MCP call could act twice.
 */
const CALL_BUDGET_MS = 55_000;

export interface ConnectionDeps {
  name: string;
  config: McpServerConfig;
  /** Read at every start, from the vault. */
  secrets: () => McpSecrets;
  log: BoundedLog;
  /** Told the server's current tools after every start and every tools/list_changed. */
  onTools: (tools: McpToolSpec[], leftOut: string[]) => void;
  /** Told whenever the state changes (Settings shows it). */
  onChange: () => void;
  backoff?: Backoff;
  /** How long a start must stay up to count as one that worked: STAYED_UP_MS unless a test shortens it. */
  stayedUpMs?: number;
}

/**
 * One configured server, kept alive: it starts on demand, is restarted with growing delays when it dies or
 * fails to start (until it has failed to start, or died within STAYED_UP_MS of starting, MCP_START_ATTEMPTS times in
 * a row: then it is left `failed` until `restart()`), and every call is bounded by the server's time limit.
 * Whatever the server does (hang, die mid-call, print garbage, close its pipes), a call ends with a ToolError the
 * model reads; nothing is thrown at the host.
 */
export class McpConnection {
  state: McpServerState = 'stopped';
  error: string | null = null;
  restarts = 0;
  pid: number | null = null;
  /** Its last start was refused (HTTP 401 or 403), until one runs: its card points at the secret it sends. */
  isRefused = false;
  private client: Client | null = null;
  private starting: Promise<void> | null = null;
  /** The client being connected, until it runs: a stop closes it too, so a start that hangs ends with it. */
  private opening: Client | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly tally: StartTally;
  /** What the server running now printed on stderr, quoted if it stops right after it started. */
  private output: StartOutput | null = null;
  private isStopped = false;
  /** Aborted, with its StopReason, when Deputy stops the server: calls in flight end then, not when it has exited. */
  private lifetime = new AbortController();
  /** Calls waiting for their answer, per connection. */
  private readonly waiting = new WeakMap<Client, number>();
  /**
   * Connections closed because the server sent a message larger than the SDK reads, with how many calls waited
   * then: with more than one, which of them that answer was for cannot be told.
   */
  private readonly oversized = new WeakMap<Client, number>();

  constructor(private readonly deps: ConnectionDeps) {
    this.tally = new StartTally(deps.backoff, deps.stayedUpMs);
  }

  get name(): string {
    return this.deps.name;
  }

  /**
   * Starts the server unless it runs, is starting or is left `failed` (only `restart()` starts that one); resolves
   * once it runs or has failed (never rejects).
   */
  start(): Promise<void> {
    if (this.state === 'failed') return Promise.resolve();
    this.isStopped = false;
    if (this.lifetime.signal.aborted) this.lifetime = new AbortController();
    if (this.client) return Promise.resolve();
    if (this.starting) return this.starting;
    const starting = this.connect(this.lifetime.signal).finally(() => {
      if (this.starting === starting) this.starting = null;
    });
    this.starting = starting;
    return starting;
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const { name, config } = this.deps;
    if (this.state === 'restarting')
      throw new ToolError(
        'mcp_unavailable',
        `The MCP server ${quoted(name)} stopped and is being restarted; try again shortly.`,
      );
    // Left failed, it is not started for a call either: the call says why it is not running, at once. Its reason may
    // end with the server's own words ("…, saying: Error: the database is locked"), which end no sentence.
    if (this.state === 'failed')
      throw new ToolError(
        'mcp_unavailable',
        `${asSentence(this.error ?? `The MCP server ${quoted(name)} could not start.`)} Deputy stopped trying after ${MCP_START_ATTEMPTS} failed starts; the person can start it again in Settings → Extensions.`,
      );
    const deadline = Date.now() + CALL_BUDGET_MS;
    await this.startWithin(deadline - Date.now() - 1_000);
    const { lifetime } = this;
    const client = this.client;
    // Stopped while the call waited for the server to start: nothing was sent, so nothing can have run.
    if (lifetime.signal.aborted) throw stoppedError(name, tool, lifetime.signal.reason, false);
    // Why it did not start is already a sentence naming the server (see `connect`): it is said once, as is.
    if (!client)
      throw new ToolError(
        'mcp_unavailable',
        this.error ?? `The MCP server ${quoted(name)} is not running: it did not start in time.`,
      );
    this.waiting.set(client, (this.waiting.get(client) ?? 0) + 1);
    try {
      const answer = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: AbortSignal.any([signal, lifetime.signal]),
        timeout: Math.min(config.callTimeoutSeconds * 1_000, deadline - Date.now()),
      });
      this.noteAnswering(client, null);
      return answer;
    } catch (error) {
      if (lifetime.signal.aborted && !signal.aborted)
        throw stoppedError(name, tool, lifetime.signal.reason, true);
      const note = (line: string) => this.deps.log.note(line);
      const waited = this.oversized.get(client);
      const failure = callError({ name, config, tool, error, signal, waited, note });
      // A server stuck (a busy loop, a deadlock) keeps its connection open and looks running: its card says so.
      if (failure.code === 'mcp_timeout')
        this.noteAnswering(
          client,
          `The MCP server ${quoted(name)} did not answer ${tool} within ${config.callTimeoutSeconds} s. If its calls keep going unanswered, Restart it.`,
        );
      throw failure;
    } finally {
      this.waiting.set(client, (this.waiting.get(client) ?? 1) - 1);
    }
  }

  /** Starts it (as `start`), waiting at most `ms` for it to run or fail: it goes on starting after that. */
  async startWithin(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([this.start(), waited]);
    clearTimeout(timer);
  }

  /** Stops the server and every restart (a call in flight ends at once, saying why): nothing starts again until `start()`. */
  async stop(reason: StopReason): Promise<void> {
    this.isStopped = true;
    this.lifetime.abort(reason);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.tally.ended();
    const client = this.client;
    const pid = this.pid;
    const opening = this.opening;
    this.client = null;
    this.pid = null;
    this.opening = null;
    // A start under way is left to end on its own (its lifetime is over); the next start is a new one.
    this.starting = null;
    this.setState('stopped', null);
    // Read before closing: once the SDK has stopped its child, what that child started belongs to no one.
    const leftovers = pid ? await descendantsOf(pid) : [];
    await Promise.all([client, opening].map((open) => open?.close().catch(() => {})));
    // Deputy's exit waits for them (3 s at most, see withinExitWait); a restart or Turn off does not.
    const stopped = stopLeftovers(leftovers);
    if (reason === 'closing') await withinExitWait(stopped);
  }

  /** Stops it, then starts it now, whatever backoff was waiting, waiting at most `ms` for it (as `startWithin`). */
  async restart(ms: number): Promise<void> {
    await this.stop('restarted');
    this.tally.reset();
    await this.startWithin(ms);
  }

  /** One start, for the `lifetime` it belongs to: once that is over (a stop), it leaves the connection alone. */
  private async connect(lifetime: AbortSignal): Promise<void> {
    const { name, config, log } = this.deps;
    this.setState('starting', null);
    log.note(`starting (${config.transport === 'stdio' ? config.command : config.url})`);
    const output = new StartOutput();
    /** The wait its address asked for when it answered 429 or 503 (Retry-After), if it did. */
    const asked: { waitMs: number | null } = { waitMs: null };
    try {
      const opened = await openClient({
        config,
        secrets: this.deps.secrets(),
        timeoutMs: START_TIMEOUT_MS,
        onStderr: (chunk) => {
          log.write(chunk);
          output.write(chunk);
        },
        note: (line) => log.note(line),
        onRetryAfter: (ms) => (asked.waitMs = ms),
        prepare: (client) => {
          if (!lifetime.aborted) this.opening = client;
          client.onerror = (error) => {
            log.note(`protocol error: ${redactErrorMessage(error)}`);
            // The SDK drops a message over its 10 MB and closes the connection: the call it answered then fails as
            // "connection closed", which would read as if the server had died.
            if (/ReadBuffer exceeded/.test(error.message) || error.message.includes(TOO_LARGE_MESSAGE)) {
              this.oversized.set(client, this.waiting.get(client) ?? 0);
              // The SDK closes a stdio connection itself; over HTTP the call would wait for an answer that never
              // comes, so the connection is closed here, and the call ends as from a stdio server.
              if (config.transport === 'http') void client.close();
            }
          };
          client.onclose = () => this.closed(client);
          client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
            void this.refreshTools(client);
          });
        },
      });
      if (lifetime.aborted) {
        await opened.client.close().catch(() => {});
        return;
      }
      this.opening = null;
      this.client = opened.client;
      this.pid = opened.pid;
      await this.refreshTools(opened.client);
      if (this.client !== opened.client) return;
      this.output = output;
      this.tally.running();
      this.isRefused = false;
      log.note(`running over ${opened.kind}${opened.pid ? ` (pid ${opened.pid})` : ''}`);
      this.setState('running', null);
    } catch (error) {
      // Stopped meanwhile: the stop closed what this start opened, and said so.
      if (lifetime.aborted) return;
      this.opening = null;
      log.note(`could not start: ${redactErrorMessage(error)}`);
      const client = this.client;
      this.client = null;
      await client?.close().catch(() => {});
      this.isRefused = isRefusal(error);
      const waitMs = asksToWait(error) ? asked.waitMs : null;
      const why = `The MCP server ${quoted(name)} could not start. ${startProblem(error, config, output.reason(), START_TIMEOUT_MS, waitMs)}`;
      // An address not reached, or one that answered it cannot answer for now (503), is retried as before, for as
      // long as it takes: the network may come back, the server may be back in a moment (when it said, if it did).
      // A 500 counts, but the next start waits longer after it: some hosts answer it for a while as a server boots.
      this.failedStart(why, failedStartKind(error, config), waitMs);
    }
  }

  /** A start that did not work: tried again after the backoff, until MCP_START_ATTEMPTS counted ones in a row. */
  private failedStart(why: string, kind: FailedStartKind, waitMs: number | null = null): void {
    if (this.tally.failedStart(kind)) this.scheduleRestart(why, waitMs);
    else this.giveUp(why);
  }

  private async refreshTools(client: Client): Promise<void> {
    const leftOut: string[] = [];
    const tools = await listTools(client, START_TIMEOUT_MS, (line) => {
      leftOut.push(line);
      this.deps.log.note(line);
    });
    if (client !== this.client) return;
    this.deps.onTools(tools, leftOut);
    this.deps.onChange();
  }

  private closed(client: Client): void {
    if (client !== this.client) return;
    this.client = null;
    this.pid = null;
    const isEarly = this.tally.ended();
    // Closed while its start still waits for its tools: the start fails on that, and counts it, once.
    if (this.isStopped || this.state === 'starting') return;
    const { name, log } = this.deps;
    // The connection was closed because of a message too large, not because the server failed: the card says so.
    if (this.oversized.has(client)) {
      log.note('the connection was closed after a message of more than 10 MB');
      this.scheduleRestart(
        `The MCP server ${quoted(name)} sent a message of more than 10 MB, more than Deputy reads, so its connection was closed and ${reconnecting(this.deps.config)}.`,
      );
      return;
    }
    log.note('the server exited or closed its connection');
    // Up for moments only: its start did not work, however well it answered Deputy's first requests.
    if (isEarly) this.failedStart(stoppedRightAfterStart(name, this.output?.reason() ?? null), 'counted');
    else this.scheduleRestart(`The MCP server ${quoted(name)} stopped unexpectedly.`);
  }

  /** What the card of a running server says about its last call: that it went unanswered, or nothing once one is answered. */
  private noteAnswering(client: Client, unanswered: string | null): void {
    if (client !== this.client || this.state !== 'running' || this.error === unanswered) return;
    this.setState('running', unanswered);
  }

  /** Starts it again after the tally's delay, which grows until a start works, or after the wait it asked for. */
  private scheduleRestart(reason: string, waitMs: number | null = null): void {
    const delay = this.tally.nextDelay(waitMs);
    this.setState('restarting', reason);
    this.deps.log.note(`restarting in ${Math.round(delay / 100) / 10} s`);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.isStopped) return;
      this.restarts += 1;
      void this.start();
    }, delay);
    this.restartTimer.unref();
  }

  /** Left failed: no restart is scheduled, and nothing starts it again until `restart()`. */
  private giveUp(reason: string): void {
    this.deps.log.note(`not restarting: it failed to start ${MCP_START_ATTEMPTS} times in a row`);
    this.setState('failed', reason);
  }

  private setState(state: McpServerState, error: string | null): void {
    this.state = state;
    this.error = error;
    this.deps.onChange();
  }
}
