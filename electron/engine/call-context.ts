import { isInOwnWords } from '../policy/copied-text';
import type { CallNames } from '../../shared/contract';
import type { ToolContext } from '../tools/tool';
import { fingerprint, idempotencyKey } from './fingerprint';
import type { CheckedCall, RunLoopDeps, RunSpec } from './run-deps';
import { runProvenance } from './run-provenance';
import type { CallPart, RunState } from './run-state';

/** What handling one call needs: the run's dependencies, its spec, and the state its outcome lands in. */
export interface CallScope {
  deps: RunLoopDeps;
  spec: RunSpec;
  state: RunState;
}

/** The key a call's side effect carries: the same run, call and arguments always give the same key. */
export function keyOf(spec: RunSpec, call: CallPart, check: CheckedCall): string {
  return idempotencyKey(spec.runId, call.callId, fingerprint(check.tool.name, check.args));
}

/** How a call is handed to its tool, beyond the call itself. */
export interface HandedAs {
  /** The key its side effect carries (by default the one its run, call and arguments give). */
  key?: string;
  /** The person approved this very call. */
  isConfirmed?: boolean;
  /** The names it was decided with, as its action stores them. */
  names?: CallNames | undefined;
}

/**
 * What a tool is handed with a call: the run, the action, the key its side effect carries, where its words came
 * from, and the names it was decided with.
 */
export function toolContext(
  scope: CallScope,
  actionId: string,
  call: CallPart,
  check: CheckedCall,
  { key = keyOf(scope.spec, call, check), isConfirmed = false, names }: HandedAs = {},
): ToolContext {
  const { deps, spec } = scope;
  return {
    runId: spec.runId,
    threadId: spec.threadId,
    actionId,
    idempotencyKey: key,
    signal: spec.signal,
    now: deps.now,
    origin: originOf(scope, check, isConfirmed),
    ...(names && { names }),
  };
}

/** Whether the call's words are the person's own or drawn from content the run read, and from which. */
function originOf(scope: CallScope, check: CheckedCall, isConfirmed: boolean): ToolContext['origin'] {
  const provenance = runProvenance(scope.state, scope.deps.registry);
  const words = JSON.stringify(Object.values(check.args));
  const isFromContent = provenance.sources.length > 0 && !isInOwnWords(words, provenance.trusted);
  return {
    isFromContent,
    sources: isFromContent ? [...new Set(provenance.sources.map((source) => source.label))] : [],
    isConfirmed,
  };
}
