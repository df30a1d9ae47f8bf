import { phaseWords } from '../../shared/phase-words';
import type { PolicyDecision } from '../policy/types';
import type { RunSpec } from './run-deps';
import type { RunState } from './run-state';

/** A role SOP as the engine enforces it (Keep-Up §7): ordered phases, each with its tools, and gates between them. */
export interface RunSop {
  phases: ReadonlyArray<{ name: string; allowedTools: readonly string[]; requiresApproval?: boolean }>;
  /** Before leaving phase `after`, at least `min` of its tool calls must have succeeded. */
  gates: ReadonlyArray<{ after: string; min: number }>;
}

export type GateVerdict = { ok: true } | { ok: false; message: string };

const OK: GateVerdict = { ok: true };

export function currentPhase(sop: RunSop, state: RunState): string {
  return state.sopPhase ?? sop.phases[0]?.name ?? '';
}

/**
 * Whether the run may call `tool` now. A tool of the current phase may run. A tool of a later phase moves the
 * run on to that phase, when the gates of the phases it leaves are met; otherwise it is refused and the model
 * is told why and what it may do instead. Moving on is written into the state, so the next checkpoint holds it.
 */
export function admitTool(spec: RunSpec, state: RunState, tool: string): GateVerdict {
  if (spec.tools && !spec.tools.has(tool))
    return {
      ok: false,
      message: `${tool} is not one of the tools granted to ${spec.agentId}. It may use: ${[...spec.tools].join(', ') || 'no tools'}.`,
    };
  const sop = spec.sop;
  if (!sop) return OK;
  const phase = currentPhase(sop, state);
  const at = sop.phases.findIndex((candidate) => candidate.name === phase);
  if (sop.phases[at]?.allowedTools.includes(tool)) return OK;
  const later = sop.phases.findIndex(
    (candidate, index) => index > at && candidate.allowedTools.includes(tool),
  );
  const here = sop.phases[at]?.allowedTools ?? [];
  const allowedHere = here.length > 0 ? here.join(', ') : 'no tools (think and write)';
  if (later < 0)
    return {
      ok: false,
      message: `${tool} is not allowed in the "${phase}" phase or any phase after it. In "${phase}" you may use: ${allowedHere}.`,
    };
  const unmet = unmetGate(sop, state, at, later);
  if (unmet)
    return { ok: false, message: `${tool} belongs to the "${sop.phases[later]?.name}" phase. ${unmet}` };
  state.sopPhase = sop.phases[later]?.name ?? phase;
  state.sopResults = 0;
  return OK;
}

/** `complete_task` is the last phase's act: every gate on the way there must be met. */
export function admitCompletion(spec: RunSpec, state: RunState): GateVerdict {
  const sop = spec.sop;
  if (!sop) return OK;
  const at = sop.phases.findIndex((candidate) => candidate.name === currentPhase(sop, state));
  const unmet = unmetGate(sop, state, at, sop.phases.length - 1);
  return unmet ? { ok: false, message: `The task cannot be completed yet. ${unmet}` } : OK;
}

/** Moves the run into its last phase once it completes (so the checkpoint says where it ended). */
export function enterLastPhase(spec: RunSpec, state: RunState): void {
  const last = spec.sop?.phases.at(-1);
  if (last && state.sopPhase !== last.name) {
    state.sopPhase = last.name;
    state.sopResults = 0;
  }
}

/**
 * A phase that asks before it acts (a scheduler's "awaiting_user", “Wait for your approval”): a side effect the policy would allow is held
 * for the person instead. The policy's refusals stand; only an allow is turned into a question.
 */
export function phaseDecision(
  spec: RunSpec,
  state: RunState,
  decision: PolicyDecision,
  hasSideEffects: boolean,
): PolicyDecision {
  const sop = spec.sop;
  if (!sop || !hasSideEffects || decision.kind !== 'allow') return decision;
  const phase = currentPhase(sop, state);
  if (!sop.phases.find((candidate) => candidate.name === phase)?.requiresApproval) return decision;
  return {
    kind: 'require_approval',
    level: 'confirm',
    rule: 'sop.phase_requires_approval',
    reason: `${spec.agentName ?? 'This agent'}’s step “${phaseWords(phase)}” asks you before it acts.`,
  };
}

/** Counts a successful call toward the current phase's gate. */
export function noteResult(spec: RunSpec, state: RunState): void {
  if (spec.sop) state.sopResults += 1;
}

function unmetGate(sop: RunSop, state: RunState, from: number, to: number): string | null {
  for (let index = Math.max(0, from); index < to; index += 1) {
    const name = sop.phases[index]?.name;
    const done = index === from ? state.sopResults : 0;
    for (const gate of sop.gates) {
      if (gate.after === name && done < gate.min)
        return `The "${name}" phase needs at least ${gate.min} successful tool result${gate.min === 1 ? '' : 's'} before moving on (it has ${done}). In "${name}" you may use: ${sop.phases[index]?.allowedTools.join(', ') || 'no tools'}.`;
    }
  }
  return null;
}
