import type { RunResponse } from '../../shared/contract';
import { summarize } from '../agents/output-contract';
import { costOf } from '../agents/usage-cost';
import type { AgentsDeskDeps } from './agents-desk-deps';

/**
 * Told of every run ending: an agent run's lineage row gets its status and usage, and its output is registered
 * as an artifact with its parent (or itself, at the top). Runs inside the ending's own transaction.
 */
export function recordAgentResult(deps: AgentsDeskDeps, runId: string, result: RunResponse): void {
  if (result.status === 'awaiting_confirmation') return;
  const { store } = deps;
  const row = store.lineage.byRun(runId);
  if (!row || row.status === 'completed' || row.status === 'failed') return;
  const now = deps.now().toISOString();
  const used = store.runs.usage(runId);
  const usage = used
    ? {
        inputTokens: used.inputTokens,
        outputTokens: used.outputTokens,
        cost: costOf(used.model, used.inputTokens, used.outputTokens),
      }
    : { inputTokens: 0, outputTokens: 0, cost: 0 };
  // A child that ended by asking a question did not do its task: to its parent it did not finish.
  const asked = row.parentRunId !== null && result.decision === 'REQUEST_CLARIFICATION';
  store.lineage.finish(runId, asked ? 'failed' : result.status, usage, now);
  const definition = deps.catalog.get(row.role)?.definition;
  if (result.status !== 'completed' || !result.output) return;
  const output = definition ? result.output[definition.outputConfig.outputName] : result.output;
  const hasTemplate = Boolean(definition?.processOutput);
  store.artifacts.add({
    id: deps.newId(),
    runId: row.parentRunId ?? runId,
    agentId: row.role,
    sourceRunId: runId,
    type: 'report',
    content: hasTemplate && definition ? summarize(definition, output) : JSON.stringify(output, null, 2),
    mimeType: hasTemplate ? 'text/markdown' : 'application/json',
    createdAt: now,
  });
}
