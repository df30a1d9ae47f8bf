import type { GenerationConfig, ModelMessage, ToolDeclaration } from '../llm/model-client';
import type { CallScope } from './call-context';
import { completeTaskDeclaration, type CompletionContract } from './completion';
import { CONTROL_DECLARATIONS } from './control-tools';
import { STATE_INTENT_DECLARATION } from './intent-statement';
import { PLAN_DECLARATIONS } from './plans/plan-tools';
import type { RoutingDecision } from './routing';

const FINAL_CHAT_TURN =
  '\n\n[FINAL TURN] The step limit is reached. Do not call tools. Answer the person now with what you have done and what is left.';
const FINAL_TASK_TURN =
  '\n\n[FINAL WARNING] The turn or time limit is reached. Call complete_task now, alone, with the result so far. No other tool is available.';

/** What one model call sends: a pure function of the state and the spec, so a resumed run asks the same. */
export interface TurnRequest {
  model: string;
  generation?: GenerationConfig;
  systemInstruction: string;
  messages: ModelMessage[];
  tools: ToolDeclaration[];
  includeThoughts?: boolean;
}

export function turnRequest(scope: CallScope, routing: RoutingDecision): TurnRequest {
  const { deps, spec, state } = scope;
  const isFinal = state.recovery;
  // Plans are for the chat's requests; an agent works through its own SOP phases instead.
  const registered = granted(deps.registry.declarations(), spec.tools);
  const tools = toolsFor(registered, spec.completion, isFinal, !spec.tools);
  const warning = isFinal ? (spec.completion ? FINAL_TASK_TURN : FINAL_CHAT_TURN) : '';
  return {
    model: routing.resolved,
    systemInstruction: state.systemInstruction + warning,
    messages: state.messages,
    tools,
    ...(spec.generation && { generation: spec.generation }),
    ...(spec.showThinking && { includeThoughts: true }),
  };
}

type Offered = { normal: ToolDeclaration[]; withPlans: ToolDeclaration[]; final: ToolDeclaration[] };
const offeredCache = new WeakMap<ToolDeclaration[], Map<CompletionContract | null, Offered>>();

/**
 * The tools a turn offers, the same array for the same registry and contract: the prompt estimate measures each
 * array once (the registry hands out one declarations array until a tool is added).
 */
function toolsFor(
  registered: ToolDeclaration[],
  contract: CompletionContract | null,
  isFinal: boolean,
  canPlan: boolean,
): ToolDeclaration[] {
  let byContract = offeredCache.get(registered);
  if (!byContract) {
    byContract = new Map();
    offeredCache.set(registered, byContract);
  }
  let offered = byContract.get(contract);
  if (!offered) {
    const completion = contract ? [completeTaskDeclaration(contract)] : [];
    const normal = [...registered, ...CONTROL_DECLARATIONS, STATE_INTENT_DECLARATION, ...completion];
    offered = { normal, withPlans: [...normal, ...PLAN_DECLARATIONS], final: completion };
    byContract.set(contract, offered);
  }
  if (isFinal) return offered.final;
  return canPlan ? offered.withPlans : offered.normal;
}

// Filtered once per registry array and grant, like the token count below: a run asks every turn.
const grantedCache = new WeakMap<ToolDeclaration[], Map<ReadonlySet<string>, ToolDeclaration[]>>();
/** An agent sees only the tools granted to it (spec 001 §5.2); a chat run sees all of them. */
function granted(all: ToolDeclaration[], tools: ReadonlySet<string> | undefined): ToolDeclaration[] {
  if (!tools) return all;
  let byGrant = grantedCache.get(all);
  if (!byGrant) grantedCache.set(all, (byGrant = new Map()));
  let list = byGrant.get(tools);
  if (!list) byGrant.set(tools, (list = all.filter((tool) => tools.has(tool.name))));
  return list;
}
