import {
  type ActionRecord,
  type AgentRunInput,
  type Approval,
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
  type ContractHost,
  DeputyError,
  type ErrorBody,
  notFound,
  type RunEvent,
  type RunRequest,
  type RunResponse,
  type RunStarted,
  type StreamEvent,
  type StreamName,
  type StreamParsedInput,
} from '../../shared/contract';
import type { ContextService } from '../context/context-service';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import type { Store } from '../store/store';
import type { ToolDescription, ToolRegistry } from '../tools/registry';
import type { Vault } from '../vault/vault';
import type { AgentsDesk } from './agents-desk';
import type { ApprovalDesk } from './approval-desk';
import { ApprovalsBus } from './approvals-bus';
import type { AuditDesk } from './audit-desk';
import { contractHandlers, contractStreams, type Handlers } from './channels/contract-channels';
import type { StreamHandlers } from './channels/handlers';
import type { ClientCalls } from './client-calls';
import type { DataDesk } from './data-desk';
import { composeDesks } from './host-desks';
import type { HostDeps } from './host-deps';
import { HostRuns } from './host-runs';
import type { PlanDesk } from './plan-desk';
import type { RunEventBus } from './run-event-bus';
import type { RunIds } from './run-launcher';
import type { SideEffectsSwitch } from './side-effects-switch';

/** How often pending approvals are checked for expiry while the host runs. */
const EXPIRY_SWEEP_MS = 10_000;
/** How often the audit trail's full-text index takes in a batch of new entries (a search catches up first). */
const AUDIT_INDEX_MS = 1_000;

/**
 * What the tests and the benches read or drive beneath the contract, through `Host.internalsForTests()`. The
 * product never uses it: everything it does goes through the contract's commands and streams.
 */
export interface HostInternals {
  /** The database: the ledger, the checkpoints and the runtime log, read in assertions. */
  store: Store;
  /** The tools as the host composed them, with what the catalog does not show (isStoreOnly, mcpServer…). */
  registry: ToolRegistry;
  /** What a run's loop is given, for driving `driveRun` directly with a spec of the test's own. */
  runDeps(): RunLoopDeps;
  /** The spec the host would give this run (a chat's, or its agent's), for a test to adjust before driving it. */
  specFor(run: RunIds, signal: AbortSignal): RunSpec;
}

/** The one object that implements the contract; both transports (IPC, HTTP/WebSocket) call into it. */
export class Host implements ContractHost {
  readonly events: RunEventBus;
  readonly approvals: ApprovalDesk;
  readonly data: DataDesk;
  /** Deputy's tools for other MCP clients, each call under the policy, the approvals and the ledger. */
  readonly clientCalls: ClientCalls;
  readonly audit: AuditDesk;
  /** "Pause all side effects": the run-time kill switch the tray, the banner and the HTTP API flip. */
  readonly sideEffects: SideEffectsSwitch;
  readonly agents: AgentsDesk;
  readonly plans: PlanDesk;
  private readonly runs: HostRuns;
  private readonly approvalsBus: ApprovalsBus;
  private readonly handlers: Handlers;
  private readonly streamHandlers: StreamHandlers;
  private readonly expiryTimer: NodeJS.Timeout;
  private readonly stopAuditIndex: () => void;
  private isClosed = false;

  /** Where secrets live (the headless API token, the connectors' credentials). */
  get vault(): Vault {
    return this.deps.vault;
  }

  /** The context index: the Data screen's size and clear, and a refresh on demand. */
  get context(): ContextService {
    return this.deps.context;
  }

  constructor(private readonly deps: HostDeps) {
    const approvalsBus = new ApprovalsBus(() => this.approvals.pending());
    this.approvalsBus = approvalsBus;
    this.runs = new HostRuns(deps, {
      isClosed: () => this.isClosed,
      desks: () => desks,
      approvalsChanged: (changed) => approvalsBus.publish(changed),
    });
    this.events = this.runs.events;
    const desks = composeDesks(deps, this.runs, approvalsBus);
    this.approvals = desks.approvals;
    this.data = desks.data;
    this.clientCalls = desks.clientCalls;
    this.audit = desks.audit;
    this.sideEffects = desks.sideEffects;
    this.agents = desks.agents;
    this.plans = desks.plans;
    this.handlers = contractHandlers(deps, this.runs, desks);
    this.streamHandlers = contractStreams(deps, this.runs, desks, this.approvalsBus);
    this.expiryTimer = setInterval(() => this.sweepExpiredApprovals(), EXPIRY_SWEEP_MS);
    this.expiryTimer.unref();
    this.stopAuditIndex = deps.store.auditSearch.keepUp(AUDIT_INDEX_MS, (error) =>
      deps.logError('could not index audit entries for search', error),
    );
  }

  async invoke<C extends CommandName>(channel: C, input: CommandParsedInput<C>): Promise<CommandOutput<C>> {
    const handler = this.handlers[channel] as (input: CommandParsedInput<C>) => Promise<CommandOutput<C>>;
    return handler(input);
  }

  subscribe<S extends StreamName>(
    channel: S,
    input: StreamParsedInput<S>,
    listener: (event: StreamEvent<S>) => void,
  ): () => void {
    const handler = this.streamHandlers[channel] as StreamHandlers[S];
    return handler(input, listener);
  }

  /** Starts a run and answers at once; progress arrives on `run.events`. */
  startRun(request: RunRequest): RunStarted {
    return this.runs.start(request);
  }

  /** Starts a run and waits for its ending (the non-streaming HTTP route). */
  async runToEnd(request: RunRequest, onEvent?: (event: RunEvent) => void): Promise<RunResponse> {
    const { done, unsubscribe } = this.runs.launcher.launch(request, onEvent);
    try {
      return await done;
    } finally {
      unsubscribe();
    }
  }

  /** Starts an agent and waits for its ending (POST /api/agents/:name/run and its stream). */
  async runAgentToEnd(input: AgentRunInput, onEvent?: (event: RunEvent) => void): Promise<RunResponse> {
    if (this.isClosed) throw new DeputyError('conflict', 'Deputy is shutting down.');
    const { started, done } = this.agents.start(input);
    // The bus replays what the run already emitted to a subscriber of that run: nothing is missed.
    const unsubscribe = onEvent ? this.events.subscribe({ runId: started.runId }, onEvent) : () => {};
    try {
      return await done;
    } finally {
      unsubscribe();
    }
  }

  /** Every tool the assistant has, as it declares itself (the HTTP API's `/api/tools`). */
  toolCatalog(): ToolDescription[] {
    return this.deps.registry.catalog();
  }

  /** One ledger entry and its approval, found by either id (the HTTP API's `/api/actions/:id`). */
  actionDetail(id: string): { action: ActionRecord | null; approval: Approval | null } {
    const stored = this.deps.store.approvals.get(id);
    const action = this.deps.store.actions.get(stored?.actionId ?? id);
    if (!stored && !action) throw notFound('action or approval', id);
    return { action, approval: stored ? this.approvals.view(stored) : null };
  }

  /** A request refused before any run was made: its row in the decision log. */
  refusedRequest(error: ErrorBody): void {
    this.runs.refusedRequest(error);
  }

  cancelRun(runId: string): boolean {
    return this.runs.cancel(runId);
  }

  /** On start-up: the side effects runs that have ended left `started` are looked for; never run again. */
  settleEndedRuns(): Promise<void> {
    return this.runs.settleEndedRuns();
  }

  /** On start-up and on Resume: every unfinished run goes on from its last checkpoint. */
  resumeUnfinished(): void {
    this.runs.resumeUnfinished();
  }

  /** For tests and benches only: see HostInternals. */
  internalsForTests(): HostInternals {
    return {
      store: this.deps.store,
      registry: this.deps.registry,
      runDeps: () => this.runs.runDeps(),
      specFor: (run, signal) => this.runs.specFor(run, signal),
    };
  }

  sweepExpiredApprovals(): void {
    try {
      this.approvals.expireDue();
    } catch (error) {
      this.deps.logError('could not expire approvals', error);
    }
  }

  /**
   * Closing is not cancelling: the database is closed first, so nothing more is written, then what was still
   * running is stopped. Every run stays as its last checkpoint says and goes on at the next start (a call that
   * was in flight is looked for then, like after a crash).
   */
  async close(): Promise<void> {
    this.isClosed = true;
    clearInterval(this.expiryTimer);
    this.stopAuditIndex();
    this.deps.agentCatalog.unwatch();
    this.deps.connections.close();
    const contextClosed = this.deps.context.close();
    // The data folder stays this host's until its workers and servers have stopped too.
    const lock = this.deps.store.takeLock();
    this.deps.store.close();
    try {
      await Promise.all([
        this.runs.active.stopAll(),
        this.deps.mcp.close(),
        contextClosed,
        this.deps.walKeeper.close(),
      ]);
    } finally {
      lock?.release();
    }
  }
}
