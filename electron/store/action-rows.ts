import { CallNames, contractStateOf, type ActionRecord, type LedgerState } from '../../shared/contract';
import { asRecord, parseStoredJson } from './json';

export interface ActionRow {
  id: string;
  run_id: string;
  thread_id: string;
  tool: string;
  args_json: string;
  state: LedgerState;
  result_json: string | null;
  error: string | null;
  error_code: string | null;
  names_json: string | null;
  policy_decision: string | null;
  policy_rule: string | null;
  policy_reason: string | null;
  created_at: string;
}

export const toAction = (row: ActionRow): ActionRecord => ({
  id: row.id,
  runId: row.run_id,
  threadId: row.thread_id,
  tool: row.tool,
  args: asRecord(parseStoredJson(row.args_json)),
  state: contractStateOf(row.state),
  ...namesOf(row.names_json),
  ledgerState: row.state,
  ...(row.result_json !== null && { result: parseStoredJson(row.result_json) }),
  error: row.error,
  ...(row.error_code !== null && { errorCode: row.error_code }),
  policy:
    row.policy_decision && row.policy_rule
      ? { decision: row.policy_decision, rule: row.policy_rule, reason: row.policy_reason ?? '' }
      : null,
  createdAt: row.created_at,
});

/** The stored names, when there are any that read as names: a row from before them has none. */
export function namesOf(json: string | null): { names?: CallNames } {
  if (json === null) return {};
  const names = CallNames.safeParse(parseStoredJson(json));
  return names.success ? { names: names.data } : {};
}

export interface NewAction {
  id: string;
  runId: string;
  threadId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  state: LedgerState;
  fingerprint?: string | null;
  /** Sent with the call so the service can drop a repeat; derived from run, call and arguments by the engine. */
  idempotencyKey?: string | null;
  meta?: Record<string, unknown> | null;
  /** What the person knows the ids among its arguments by (the tool's `names`), when it knew any. */
  names?: CallNames;
  hasSideEffects?: boolean;
  isExternal?: boolean;
  /** The policy's decision, when it is known as the row is made (see `setPolicy`). */
  policy?: PolicyOutcome;
}

export interface PolicyOutcome {
  decision: string;
  rule: string;
  reason: string;
}

/**
 * What resuming a run needs to know about one call: whether it already happened (`committed`, with its stored
 * result to replay), may have happened (`started`, `unknown`), and how to look for its effect.
 */
export interface LedgerEntry {
  id: string;
  runId: string;
  threadId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  ledgerState: LedgerState;
  result: Record<string, unknown> | null;
  error: string | null;
  fingerprint: string | null;
  idempotencyKey: string | null;
  hasSideEffects: boolean;
  attempts: number;
  /** What the person knows the ids among its arguments by, as the call was decided with them (none before v23). */
  names?: CallNames;
}

export interface LedgerRow {
  id: string;
  run_id: string;
  thread_id: string;
  call_id: string;
  tool: string;
  args_json: string;
  state: LedgerState;
  result_json: string | null;
  error: string | null;
  fingerprint: string | null;
  idempotency_key: string | null;
  has_side_effects: number;
  attempts: number;
  names_json: string | null;
}

export const toLedgerEntry = (row: LedgerRow): LedgerEntry => ({
  id: row.id,
  runId: row.run_id,
  threadId: row.thread_id,
  callId: row.call_id,
  tool: row.tool,
  args: asRecord(parseStoredJson(row.args_json)),
  ledgerState: row.state,
  result: row.result_json === null ? null : asRecord(parseStoredJson(row.result_json)),
  error: row.error,
  fingerprint: row.fingerprint,
  idempotencyKey: row.idempotency_key,
  hasSideEffects: row.has_side_effects === 1,
  attempts: row.attempts,
  ...namesOf(row.names_json),
});

export const ACTION_COLUMNS =
  'id, run_id, thread_id, tool, args_json, state, result_json, error, error_code, names_json, policy_decision, policy_rule, policy_reason, created_at';

/** A ledger row's values, as the insert names them. */
export interface ActionValues {
  id: string;
  runId: string;
  threadId: string;
  callId: string;
  tool: string;
  argsJson: string;
  state: LedgerState;
  resultJson: string | null;
  error: string | null;
  errorCode: string | null;
  fingerprint: string | null;
  idempotencyKey: string | null;
  metaJson: string | null;
  namesJson: string | null;
  hasSideEffects: 0 | 1;
  isExternal: 0 | 1;
  policyDecision: string | null;
  policyRule: string | null;
  policyReason: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

export const heldEntry = (values: ActionValues): LedgerEntry =>
  toLedgerEntry({
    id: values.id,
    run_id: values.runId,
    thread_id: values.threadId,
    call_id: values.callId,
    tool: values.tool,
    args_json: values.argsJson,
    state: values.state,
    result_json: values.resultJson,
    error: values.error,
    fingerprint: values.fingerprint,
    idempotency_key: values.idempotencyKey,
    has_side_effects: values.hasSideEffects,
    attempts: values.attempts,
    names_json: values.namesJson,
  });
