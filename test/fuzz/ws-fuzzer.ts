import { WebSocket } from 'ws';
import { LIMITS } from '../../shared/contract';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import type { Rng } from '../chaos/prng';
import { checkResult, leakIn } from './checks';
import type { IdPool } from './inputs';
import { channelInput } from './inputs';
import { pick, randomJson } from './values';

export interface WsOutcome {
  kind: string;
  what: string;
  problem: string | null;
}

const REPLY_TIMEOUT_MS = 30_000;

/**
 * Sends one generated message over a shared WebSocket and waits for its answer: the reply to its id, or
 * the connection-level error a message without a usable id gets. Every message the server sends (events
 * included) is checked for leaks.
 */
export class WsFuzzer {
  private socket: WebSocket | null = null;
  private ready: Promise<WebSocket> | null = null;
  private readonly waiting = new Map<string, (message: Record<string, unknown>) => void>();
  private readonly errorWaiters: ((message: Record<string, unknown>) => void)[] = [];
  private leak: string | null = null;

  constructor(
    private readonly port: number,
    private readonly token: string,
  ) {}

  async send(rng: Rng, ids: IdPool, index: number): Promise<WsOutcome> {
    const socket = await this.open();
    let id = `c${index}`;
    const roll = rng.next();
    let text: string;
    let what: string;
    let expectsReply = true;
    if (roll < 0.55) {
      const [channel, input] = channelInput(rng, ids, 'command');
      text = JSON.stringify({ kind: 'command', id, channel, input });
      what = `command ${channel}`;
    } else if (roll < 0.75) {
      const [channel, input] = channelInput(rng, ids, 'stream');
      // Sometimes an id already in use, which must be refused with a conflict (off the id: see `receive`).
      if (rng.chance(0.1)) id = 's1';
      text = JSON.stringify({ kind: 'subscribe', id, channel, input });
      what = `subscribe ${channel}`;
    } else if (roll < 0.85) {
      text = JSON.stringify({ kind: 'unsubscribe', id: `c${rng.int(0, index)}` });
      what = 'unsubscribe';
      expectsReply = false;
    } else {
      text = pick(rng, ['{', 'null', '[]', '{"kind":"command"}', JSON.stringify(randomJson(rng)) ?? '1']);
      what = 'noise';
      expectsReply = false;
    }
    const answer = new Promise<Record<string, unknown> | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), REPLY_TIMEOUT_MS);
      const settle = (message: Record<string, unknown>): void => {
        clearTimeout(timer);
        resolve(message);
      };
      if (expectsReply) this.waiting.set(id, settle);
      else this.errorWaiters.push(settle);
    });
    socket.send(text);
    if (!expectsReply) {
      // An unsubscribe is answered on its own id (or, naming a command still in flight, by a connection-level
      // error); noise by a connection-level error.
      const message = await Promise.race([
        answer,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 200)),
      ]);
      this.errorWaiters.length = 0;
      if (message?.kind === 'closed') return this.closedOutcome(what, message.code, text);
      return this.outcome(what, message ? checkResult(resultOf(message)) : null);
    }
    const message = await answer;
    this.waiting.delete(id);
    if (!message)
      return this.outcome(what, `no reply within ${REPLY_TIMEOUT_MS} ms to ${text.slice(0, 160)}`);
    if (message.kind === 'closed') return this.closedOutcome(what, message.code, text);
    ids.learn(JSON.stringify(message));
    return this.outcome(what, checkResult(resultOf(message)));
  }

  close(): void {
    this.socket?.terminate();
  }

  /** The server may close a connection only for a message over the size cap (1009); anything else is a finding. */
  private closedOutcome(what: string, code: unknown, sent: string): WsOutcome {
    if (code === 1009 && Buffer.byteLength(sent) > LIMITS.requestBodyBytes)
      return { kind: 'closed-too-big', what, problem: null };
    return { kind: 'finding', what, problem: `the server closed the connection (${String(code)})` };
  }

  private outcome(what: string, problem: string | null): WsOutcome {
    const leak = this.leak;
    this.leak = null;
    const found = problem ?? leak;
    return { kind: found ? 'finding' : 'ok', what, problem: found };
  }

  private open(): Promise<WebSocket> {
    if (this.socket?.readyState === WebSocket.OPEN && this.ready) return this.ready;
    this.ready = new Promise((resolve, reject) => {
      const socket = new WebSocket(
        `ws://127.0.0.1:${this.port}/ws`,
        [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${this.token}`],
        {
          maxPayload: 64 * 1024 * 1024,
        },
      );
      socket.on('message', (data) => this.receive(data.toString()));
      // A closed connection answers everything still waiting on it; the next case opens a new one.
      socket.once('close', (code) => {
        const closed = { kind: 'closed', code };
        for (const settle of this.waiting.values()) settle(closed);
        this.waiting.clear();
        for (const settle of this.errorWaiters.splice(0)) settle(closed);
      });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
      this.socket = socket;
    });
    return this.ready;
  }

  private receive(text: string): void {
    this.leak ??= leakIn(text);
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      this.leak ??= `a message is not JSON: ${text.slice(0, 80)}`;
      return;
    }
    if (message.kind === 'reply' && typeof message.id === 'string') this.waiting.get(message.id)?.(message);
    if (message.kind !== 'error') return;
    // A message refused while its id is in use is answered off that id, by an error that names it.
    const refused = message.refusedId;
    const waiter = typeof refused === 'string' ? this.waiting.get(refused) : undefined;
    if (waiter) waiter(message);
    else this.errorWaiters.shift()?.(message);
  }
}

/** A reply is a result as it stands; a connection-level error is read as a failed one. */
function resultOf(message: Record<string, unknown>): unknown {
  return message.kind === 'error' ? { ok: false, error: message.error } : message;
}
