import { shownName, type AgentDefinition } from '../agents/definition';
import { agentCompletion } from '../agents/output-contract';
import type { RunSpec } from '../engine/run-deps';

/**
 * An agent run's spec from the chat spec of the moment: its own turn and time limits (spec 001 runConfig),
 * its completion contract, the tools it was granted, its SOP, its model settings and who it runs under.
 */
export function agentSpec(
  base: RunSpec,
  definition: AgentDefinition,
  grantedTools: readonly string[],
  lineage: readonly string[],
): RunSpec {
  const model = definition.modelConfig;
  const limits = definition.runConfig;
  return {
    ...base,
    agentId: definition.name,
    agentName: shownName(definition),
    maxSteps: limits?.max_turns ?? base.maxSteps,
    timeLimitMs: limits?.max_time_minutes ? limits.max_time_minutes * 60_000 : base.timeLimitMs,
    completion: agentCompletion(definition),
    tools: new Set(grantedTools),
    sop: definition.sop
      ? {
          phases: definition.sop.phases,
          gates: definition.sop.qualityGates.map(({ after, min }) => ({ after, min })),
        }
      : null,
    ...(model && {
      generation: {
        ...(model.temp !== undefined && { temperature: model.temp }),
        ...(model.top_p !== undefined && { topP: model.top_p }),
        ...(model.thinkingBudget !== undefined && { thinkingBudget: model.thinkingBudget }),
      },
    }),
    lineage,
  };
}
