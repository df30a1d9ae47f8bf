import {
  type AgentRunInput,
  DeputyError,
  type MessageRecord,
  notFound,
  quoteId,
  type RunEvent,
  type RunResponse,
  type RunStarted,
} from '../../shared/contract';
import { inputSchema } from '../agents/agent-inputs';
import { shownName } from '../agents/definition';
import { agentTool, delegateTool, DELEGATE_TO_AGENT, unknownAgent } from '../agents/agent-tools';
import type { LoadedAgent } from '../agents/catalog';
import { DefaultTaskOutput } from '../engine/completion';
import type { RunSpec } from '../engine/run-deps';
import { driveRun } from '../engine/run-loop';
import { parseRunState } from '../engine/run-state';
import type { LineageRow } from '../store/lineage-repo';
import { ToolError, type ToolContext } from '../tools/tool';
import { childRunId, waitForRunEnd } from './agent-children';
import { lineageView } from './agent-lineage';
import { recordAgentResult } from './agent-results';
import { createAgentRun, type NewAgentRun } from './agent-run-create';
import { agentSpec } from './agent-spec';
import type { AgentsDeskDeps } from './agents-desk-deps';

/** How many runs' parents are kept in memory at most. */
const PARENTS_KEPT = 1_000;

/**
 * The agents domain (spec 001, Keep-Up §5.4): runs an agent from the API or the chat, offers every agent to
 * parents as a tool, and keeps the delegation contract — isolated context, a grant that is the intersection of
 * the child's toolConfig and its parent's grant, bounded depth, lineage, usage roll-up and artifacts.
 */
export class AgentsDesk {
  /**
   * Each run's parent run (null for a run of its own), read once: it is written with the run and never changes.
   * Every status event asks (twice a step), so it is not read from the table each time.
   */
  private readonly parents = new Map<string, string | null>();

  constructor(private readonly deps: AgentsDeskDeps) {}

  /** The catalog's agents as tools, plus the generic `delegate_to_agent`; called after every catalog change. */
  refreshTools(): string[] {
    const start = (agent: string, inputs: Record<string, unknown>, context: ToolContext) =>
      this.runChild(agent, inputs, context);
    const tools = this.deps.catalog.enabled().map((agent) => agentTool(agent.definition, start));
    const choices = (context: ToolContext) => this.agentChoices(context.runId);
    return this.deps.registry.replaceAgentTools([...tools, delegateTool(this.deps.catalog, start, choices)]);
  }

  /** Starts an agent as a run of its own (the API, the chat's picker): depth 1, under no parent. */
  start(input: AgentRunInput): { started: RunStarted; done: Promise<RunResponse> } {
    const agent = this.deps.catalog.usable(input.name);
    if (!agent)
      throw new DeputyError('not_found', `There is no agent named ${quoteId(input.name)} that is turned on.`);
    const inputs = this.checkInputs(
      agent,
      input.inputs,
      (message) => new DeputyError('invalid_input', message),
    );
    const { store } = this.deps;
    if (input.threadId && !store.threads.get(input.threadId)) throw notFound('conversation', input.threadId);
    this.deps.checkRoomInLine();
    const run: NewAgentRun = {
      runId: this.deps.newId(),
      threadId: input.threadId ?? this.deps.newId(),
      isNewThread: !input.threadId,
      agent,
      inputs,
      parent: null,
      grantedTools: agent.definition.toolConfig.tools,
      depth: 1,
    };
    createAgentRun(this.deps, run, (ids, signal) => this.specFor(ids, signal));
    const ids = { runId: run.runId, threadId: run.threadId };
    return { started: ids, done: this.drive(ids) };
  }

  /** The spec of an agent run (new, resumed, or continued after an approval), or null for a chat run. */
  specFor(run: { id: string; threadId: string; model: string }, signal: AbortSignal): RunSpec | null {
    const row = this.deps.store.lineage.byRun(run.id);
    if (!row) return null;
    const base = this.deps.baseSpec(run, signal);
    const definition = this.deps.catalog.get(row.role)?.definition;
    const lineage = this.pathOf(row);
    if (!definition) {
      // The definition was removed while its run was under way: the run may still finish, with what it was granted.
      return {
        ...base,
        agentId: row.role,
        tools: new Set(row.grantedTools),
        lineage,
        completion: { output: DefaultTaskOutput },
      };
    }
    return agentSpec(base, definition, row.grantedTools, lineage);
  }

  /** A child run's status names its parent, so a window following the parent is not taken over by it. */
  withParent(event: Extract<RunEvent, { type: 'status' }>): RunEvent {
    const parentRunId = this.parentOf(event.runId);
    return parentRunId ? { ...event, parentRunId } : event;
  }

  /**
   * What a child run said stays in its own context: the thread shows it nested, but the next chat run's history
   * is the person's conversation with Deputy (the child's result reached its parent as the call's result).
   */
  withoutChildMessages(messages: MessageRecord[]): MessageRecord[] {
    const isChild = new Map<string, boolean>();
    return messages.filter((message) => {
      if (!message.runId) return true;
      if (!isChild.has(message.runId)) isChild.set(message.runId, this.isChild(message.runId));
      return !isChild.get(message.runId);
    });
  }

  /** Whether a run is a child (it must not take a slot its waiting parent already holds). */
  isChild(runId: string): boolean {
    return this.parentOf(runId) !== null;
  }

  /** The run that started `runId` as its child, or null. A run's own row comes first (see createAgentRun). */
  private parentOf(runId: string): string | null {
    const known = this.parents.get(runId);
    if (known !== undefined) return known;
    const parent = this.deps.store.lineage.byRun(runId)?.parentRunId ?? null;
    // Runs that end take theirs out (onResult); this bounds what runs that never end leave behind.
    if (this.parents.size >= PARENTS_KEPT) this.parents.clear();
    this.parents.set(runId, parent);
    return parent;
  }

  /** Told of every run ending, inside the ending's own transaction: see `recordAgentResult`. */
  onResult(runId: string, result: RunResponse): void {
    this.parents.delete(runId);
    recordAgentResult(this.deps, runId, result);
  }

  lineage(runId: string) {
    if (!this.deps.store.runs.get(runId)) throw notFound('run', runId);
    return lineageView(this.deps.store, runId);
  }

  /**
   * A parent's call to an agent. The child's id comes from the call's idempotency key, so the same call after a
   * crash finds the child it started (going on, paused or done) instead of starting another.
   */
  private async runChild(
    name: string,
    rawInputs: Record<string, unknown>,
    context: ToolContext,
  ): Promise<Record<string, unknown>> {
    const { store } = this.deps;
    const childId = childRunId(context.idempotencyKey);
    if (!store.runs.get(childId)) {
      const parent = store.lineage.byRun(context.runId);
      const agent = this.deps.catalog.usable(name);
      if (!agent) throw unknownAgent(name, this.agentChoices(context.runId));
      const depth = (parent?.depth ?? 0) + 1;
      if (depth > this.deps.maxDepth)
        throw new ToolError(
          'depth_exceeded',
          `${name} cannot be started here: agents may delegate at most ${this.deps.maxDepth} levels deep, and this would be level ${depth}. Do this part yourself.`,
        );
      // Security (Keep-Up §5.12): a child gets what it asks for only where its parent has it too — never more.
      if (parent && !parent.grantedTools.includes(name))
        throw new ToolError(
          'not_granted',
          `${parent.role} may not delegate to ${name}: it is not among its tools.`,
        );
      const parentGrant = new Set(
        parent ? parent.grantedTools : this.deps.registry.list().map((tool) => tool.name),
      );
      const inputs = this.checkInputs(
        agent,
        rawInputs,
        (message) => new ToolError('invalid_arguments', message),
      );
      createAgentRun(
        this.deps,
        {
          runId: childId,
          threadId: context.threadId,
          isNewThread: false,
          agent,
          inputs,
          parent: { runId: context.runId, actionId: context.actionId, lineage: parent },
          grantedTools: agent.definition.toolConfig.tools.filter((tool) => this.mayGrant(tool, parentGrant)),
          depth,
        },
        (ids, signal) => this.specFor(ids, signal),
      );
    }
    const ids = { runId: childId, threadId: context.threadId };
    const stored = store.runs.get(childId);
    // Not going, not paused, not done: Deputy stopped before it began (resume picks up only what it knows).
    if (
      stored &&
      !this.deps.isActive(childId) &&
      stored.status !== 'awaiting_confirmation' &&
      stored.status !== 'completed' &&
      stored.status !== 'failed'
    )
      void this.drive(ids);
    const result = await waitForRunEnd(this.deps, childId, context.signal);
    // The child needs an answer it cannot get (only its parent talks to the person): the parent is told, and asks.
    if (result.decision === 'REQUEST_CLARIFICATION')
      throw new ToolError(
        'agent_needs_clarification',
        `${name} needs to know more before it can do this: ${result.summary}`,
      );
    if (result.status !== 'completed')
      throw new ToolError('agent_failed', `${name} did not finish: ${result.summary}`);
    return {
      agent: name,
      runId: childId,
      summary: result.summary,
      ...(result.output && { output: result.output }),
    };
  }

  /** The agents a run may hand work to: those turned on, and under an agent run only those it was granted. */
  private agentChoices(runId: string): string[] {
    const grant = this.deps.store.lineage.byRun(runId)?.grantedTools;
    return this.deps.catalog
      .enabled()
      .map((agent) => agent.definition.name)
      .filter((name) => !grant || grant.includes(name));
  }

  /**
   * A tool the parent has; or another agent, since that agent's own grant is in turn cut to this child's, so
   * nothing the top of the tree lacks can be reached through it. The generic delegate is never passed down.
   */
  private mayGrant(tool: string, parentGrant: ReadonlySet<string>): boolean {
    if (tool === DELEGATE_TO_AGENT) return parentGrant.has(tool);
    return parentGrant.has(tool) || this.deps.catalog.get(tool) !== null;
  }

  private checkInputs<E extends Error>(
    agent: LoadedAgent,
    raw: unknown,
    fail: (message: string) => E,
  ): Record<string, unknown> {
    const parsed = inputSchema(agent.definition).safeParse(raw ?? {});
    if (parsed.success) return parsed.data;
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'inputs'}: ${issue.message}`,
    );
    throw fail(`The inputs of ${agent.definition.name} do not fit: ${issues.join('; ')}.`);
  }

  private drive(ids: { runId: string; threadId: string }): Promise<RunResponse> {
    const { store } = this.deps;
    const run = store.runs.get(ids.runId);
    const model = run?.model ?? this.deps.defaultModel();
    return this.deps.track({ id: ids.runId, threadId: ids.threadId }, (signal) => {
      const spec = this.specFor({ id: ids.runId, threadId: ids.threadId, model }, signal);
      // A child is created inside its parent's step, whose checkpoints are written at the step's commit: commit
      // now, so the child's first checkpoint is on disk before it is read (and before the child can crash).
      store.writes.durable();
      const state = store.checkpoints.load(ids.runId);
      const deps = this.deps.runDeps();
      if (!spec) throw new Error(`run ${ids.runId} is not an agent run`);
      const parsed = state ? parseRunState(state.state) : null;
      if (!parsed) throw new Error(`run ${ids.runId} has no readable checkpoint`);
      return driveRun(deps, spec, parsed);
    });
  }

  /** Who asks, from the top, as the person knows them: each agent's shown name (see shownName). */
  private pathOf(row: LineageRow): string[] {
    const shown = (role: string): string =>
      shownName(this.deps.catalog.get(role)?.definition ?? { name: role });
    const path = [shown(row.role)];
    let parentRun = row.parentRunId;
    for (let guard = 0; parentRun && guard < 10; guard += 1) {
      const parent = this.deps.store.lineage.byRun(parentRun);
      if (!parent) break;
      path.unshift(shown(parent.role));
      parentRun = parent.parentRunId;
    }
    return path;
  }
}
