import { DeputyError, quoteId, type RunEvent, type RunRequest, type RunStarted } from '../../shared/contract';
import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import { DIRECT_CALL_ID, DIRECT_CALL_MODEL, directCallPrompt, type DirectCall } from './direct-call-model';

/** How a call another MCP client asked for ended. */
export type ClientCallOutcome =
  | { kind: 'done'; result: Record<string, unknown> }
  /** The person rejected it, or the policy refused it: `reason` says which and why. */
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; reason: string };

export interface ClientCallsDeps {
  store: Store;
  registry: ToolRegistry;
  start: (request: RunRequest, model: string) => RunStarted;
  subscribe: (runId: string, listener: (event: RunEvent) => void) => () => void;
  /** The client stopped waiting: the run stops, and what it still waits for approval on is rejected. */
  abandon: (ids: RunStarted) => void;
}

/**
 * Deputy's tools for other MCP clients (Claude Desktop, Gemini CLI). Each call is a run of its own, in its own
 * thread, whose one tool call is the client's: the policy decides it, a call that needs the person waits for
 * their decision in Deputy's window or notification, and the ledger and the audit trail record it like any other.
 */
const NOT_FOR_OTHER_CLIENTS = new Set(['query_context']);

export class ClientCalls {
  constructor(private readonly deps: ClientCallsDeps) {}

  /**
   * Deputy's own tools: never the tools of the person's MCP servers, which Deputy only borrows, and not
   * query_context, which hands over contacts, mail snippets, conversations and memories in one read: another
   * assistant asks for what it needs tool by tool, each under its own rule.
   */
  tools(): ReturnType<ToolRegistry['list']> {
    return this.deps.registry
      .list()
      .filter((tool) => tool.mcpServer === undefined && !NOT_FOR_OTHER_CLIENTS.has(tool.name));
  }

  /** A tool's own arguments as JSON Schema (without the meta-parameters the model fills). */
  argsSchema(name: string): Record<string, unknown> {
    return this.deps.registry.argsSchema(name);
  }

  async call(call: DirectCall, signal: AbortSignal): Promise<ClientCallOutcome> {
    if (!this.tools().some((tool) => tool.name === call.tool))
      throw new DeputyError('not_found', `Deputy has no tool named ${quoteId(call.tool)}.`);
    const started = this.deps.start({ prompt: directCallPrompt(call) }, DIRECT_CALL_MODEL);
    const { runId } = started;
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        // The client gave up: the run stops too, and a call still waiting for approval is not run later.
        this.deps.abandon(started);
        resolve();
      };
      const unsubscribe = this.deps.subscribe(runId, (event) => {
        const isEnd =
          event.type === 'result' &&
          (event.result.status === 'completed' || event.result.status === 'failed');
        if (!isEnd) return;
        signal.removeEventListener('abort', stop);
        queueMicrotask(() => unsubscribe());
        resolve();
      });
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    });
    return this.outcome(runId);
  }

  private outcome(runId: string): ClientCallOutcome {
    const entry = this.deps.store.actions.byCall(runId, DIRECT_CALL_ID);
    const run = this.deps.store.runs.get(runId);
    if (!entry)
      return { kind: 'failed', reason: run?.errorMessage ?? run?.summary ?? 'The call did not run.' };
    switch (entry.ledgerState) {
      case 'committed':
        return { kind: 'done', result: entry.result ?? {} };
      case 'rejected':
        return { kind: 'refused', reason: entry.error ?? 'Deputy did not run this call.' };
      default:
        return { kind: 'failed', reason: entry.error ?? run?.errorMessage ?? 'The call did not finish.' };
    }
  }
}
