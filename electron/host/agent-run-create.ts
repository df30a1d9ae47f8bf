import type { LoadedAgent } from '../agents/catalog';
import { fillTemplate, shownName } from '../agents/definition';
import type { RunSpec } from '../engine/run-deps';
import { initialState } from '../engine/run-state';
import type { LineageRow } from '../store/lineage-repo';
import { sopBlock } from './agent-prompt';
import type { AgentsDeskDeps } from './agents-desk-deps';

export interface NewAgentRun {
  runId: string;
  threadId: string;
  isNewThread: boolean;
  agent: LoadedAgent;
  inputs: Record<string, unknown>;
  parent: { runId: string; actionId: string; lineage: LineageRow | null } | null;
  grantedTools: string[];
  depth: number;
}

/** The spec of an agent run, or null when the run is not one (the desk's `specFor`). */
type SpecFor = (run: { id: string; threadId: string; model: string }, signal: AbortSignal) => RunSpec | null;

/** The run row, its lineage and its first checkpoint land together: from here on it survives a crash. */
export function createAgentRun(deps: AgentsDeskDeps, run: NewAgentRun, specFor: SpecFor): void {
  const { store } = deps;
  const { definition } = run.agent;
  const query = fillTemplate(definition.promptConfig.query, run.inputs).trim();
  const instruction = [
    `You are working as the agent "${shownName(definition)}" for Deputy.`,
    definition.promptConfig.systemPrompt.trim(),
    sopBlock(definition),
    `When the task is done, call complete_task alone with your ${definition.outputConfig.outputName}.`,
    deps.baseInstruction(query),
  ]
    .filter(Boolean)
    .join('\n\n');
  const model = definition.modelConfig?.model ?? deps.defaultModel();
  const now = deps.now().toISOString();
  const ids = { id: run.runId, threadId: run.threadId, model };
  store.transaction(() => {
    if (run.isNewThread) store.threads.create(run.threadId, shownName(definition), now);
    store.runs.create(
      { id: run.runId, threadId: run.threadId, model, prompt: query, agentId: definition.name },
      now,
    );
    store.lineage.create({
      id: deps.newId(),
      runId: run.runId,
      parentAgentId: run.parent?.lineage?.id ?? null,
      parentRunId: run.parent?.runId ?? null,
      parentActionId: run.parent?.actionId ?? null,
      role: definition.name,
      depth: run.depth,
      grantedTools: run.grantedTools,
      createdAt: now,
    });
    // A child's task is not the person's words: only a top-level agent run shows its query in the thread.
    if (!run.parent)
      store.threads.addMessage({
        id: deps.newId(),
        threadId: run.threadId,
        runId: run.runId,
        role: 'user',
        text: query,
        createdAt: now,
      });
    store.threads.touch(run.threadId, now);
    const spec = specFor(ids, new AbortController().signal);
    if (spec)
      deps
        .runDeps()
        .checkpoints.save(
          spec,
          initialState(instruction, [{ role: 'user', parts: [{ kind: 'text', text: query }] }]),
        );
    deps.emit({ type: 'status', runId: run.runId, threadId: run.threadId, status: 'queued' });
  });
}
