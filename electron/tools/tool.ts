import type { z } from 'zod';
import type { ActionKind, AlwaysAllowScope, ApprovalPreview, AutonomyLevel } from '../../shared/contract';

export type ToolCategory = 'query' | 'compute' | 'draft' | 'create' | 'update' | 'delete' | 'external';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';
/** An outside account a tool needs; when it is not connected the tool says so and the run goes on. */
export type Integration = 'google' | 'slack';

export interface ToolContext {
  runId: string;
  threadId: string;
  actionId: string;
  /**
   * Derived from the run, the call and the fingerprint of its arguments: the same call always has the same
   * key. A side effect carries it (a Message-ID, a private event property, Slack metadata) so it can be found
   * again and is never made twice.
   */
  idempotencyKey: string;
  /**
   * Aborted when the run is cancelled or the call passes the registry's time limit: a tool passes it to its
   * requests and checks it before a side effect, so a stopped call never goes on to act.
   */
  signal: AbortSignal;
  now: () => Date;
  /**
   * Where the call's words came from: content the run read (and which), or the person's own; and whether the
   * person approved this very call. A memory records it, so what content suggested is never taken later for
   * something the person said.
   */
  origin?: { isFromContent: boolean; sources: string[]; isConfirmed: boolean };
  /**
   * The names the call was decided with (its `names`, stored with its action): what its result says of them is read
   * from here, never from what this session happens to know, so the same call gives the same result after a restart.
   */
  names?: Record<string, string>;
}

/** One party an effect reaches: a mail address, a Slack channel (`slack:#name`) or a Slack user (`slack:@id`). */
export interface Recipient {
  address: string;
  /** How the effect reaches them, in the person's words: "to", "attendee, told of the change", "channel". */
  role: string;
  name?: string;
}

/** Everyone an effect reaches, read through the service before the policy decides, and what it acts on. */
export interface Reach {
  recipients: Recipient[];
  /** The thing changed, as a person names it: an event's title and time, a task's description. */
  target?: string;
}

/** What reading who an effect reaches may use: it only reads, and stops with the run. */
export interface ReachContext {
  signal: AbortSignal;
  now: () => Date;
}

/** A piece of a tool's answer that came from outside the person, and where it came from. */
export interface ContentOrigin {
  /** Finishes the sentence "this link appears only in …": "a mail from news@x.io (“Digest”)". */
  label: string;
  text: string;
  /** The person confirmed this content (a memory they confirmed): it counts as their own words. */
  isConfirmed?: boolean;
}

/** What an action changed, for the audit trail: the thing, and it before and after. */
export interface ToolEffect {
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

/** What an undo works from: the call's input, its full stored result, and the thing as it was before. */
export interface UndoRecord<Input = unknown> {
  input: Input;
  output: Record<string, unknown>;
  before: unknown;
}

export interface UndoContext {
  signal: AbortSignal;
  now: () => Date;
}

/** What reading an action's thing as it is now works from: the entity the audit trail names, and the call. */
export interface CurrentRecord<Input = unknown> {
  entityId: string | null;
  input: Input;
  output: Record<string, unknown>;
}

/** One tool: what the model sees (name, description, schema) and what the policy needs (category, risk, side effects). */
export interface Tool<Input = unknown, Output extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  /** The shape of what `execute` returns, published with the tool and checked in its tests. */
  output: z.ZodType<Output>;
  category: ToolCategory;
  risk: RiskLevel;
  hasSideEffects: boolean;
  /**
   * The side effect is a write to Deputy's own database and nothing else (the local task list, a memory), made
   * without awaiting anything, so inside a run step's transaction, and committed with the ledger's record of it.
   * The commits an outside effect needs (`started` before it, to find it after a crash; the outcome after it, to
   * keep it) are not made: a crash before the step commits loses the write and its record together, and the
   * call is made again. If that transaction was committed during the call (a retry's wait), the outcome is
   * committed at once, as an outside effect's is. Outside a step (an approval carried out), each write commits
   * on its own, as before.
   */
  isStoreOnly?: boolean;
  /** The account the tool needs connected. */
  requires?: Integration;
  /** The autonomy setting that governs this tool's side effect. */
  actionKind?: ActionKind;
  /**
   * The person's own autonomy for this very tool (an MCP tool's per-server or per-tool setting), read at each
   * decision; null or absent: the `actionKind`'s setting, or `confirm` without one.
   */
  autonomy?: () => AutonomyLevel | null;
  /**
   * The MCP server the tool comes from. Its description and its results are content from outside the person:
   * they enter every run's provenance, and Deputy never offers the tool again as its own (as an MCP server).
   */
  mcpServer?: string;
  /** How long one call may take, when not the registry's usual limit (an agent works for minutes). */
  callTimeoutMs?: number;
  /** The agent this tool starts (spec 001 §1: every agent is offered as a tool named after it). */
  agent?: string;
  /** The JSON Schema the model sees, when `input` was built from one rather than written as zod here. */
  parameters?: Record<string, unknown>;
  /** Whether a call reaches an outside service (counted against the external-call rate limit). */
  isExternal?: boolean;
  /** The addresses the model wrote into a call (to, cc, bcc, added attendees, the channel). */
  recipients?(input: Input): string[];
  /**
   * Everyone the effect would reach, including people the arguments do not name (an event's attendees are
   * told of an update), and the thing it changes. Read through the service before the policy decides; it
   * must never change anything. Without it, a call reaches exactly its `recipients`.
   */
  reach?(input: Input, context: ReachContext): Promise<Reach> | Reach;
  /**
   * Where the content of a result came from: each mail with its sender, each event, each Slack message with
   * its channel. Without it, the whole result counts as content from the tool itself.
   */
  provenance?(output: Output): ContentOrigin[];
  /**
   * The question the person must answer before the run goes on, read from a result (two people fit the name,
   * the request is unclear), or null. A question ends the run as a clarification (AMBIGUITY:UNCLEAR_INTENT).
   */
  clarification?(output: Output): string | null;
  /**
   * What the person knows the ids among the arguments by, keyed by the id as given ({ C0RANDOM01: '#random' }):
   * only what the tool already knows (its reach may have asked), never a new question to the service. Read as the
   * call is decided, for its card; the model never sees it. Absent or empty: the ids' own words.
   */
  names?(input: Input): Record<string, string>;
  /** What a person sees before approving: a title, labelled fields, a body, a before/after; `reach` when read. */
  preview?(input: Input, reach?: Reach): ApprovalPreview;
  /** The scoped rules "always allow" may create for this call (a recipient, a domain, a channel). */
  alwaysAllowScopes?(input: Input): AlwaysAllowScope[];
  execute(input: Input, context: ToolContext): Promise<Output> | Output;
  /**
   * After a crash, a side effect may have happened without its result being recorded. This finds the effect
   * this very call (its `context.idempotencyKey`) already made and returns the output `execute` would return
   * for it now, or null when there is no trace of it, so the engine commits what was done or asks the user
   * instead of sending again. It only looks: it must never create, change or send anything.
   */
  reconcile?(input: Input, context: ToolContext): Promise<Output | null>;
  /**
   * Reads the thing the call will change, as it is before (a task, an event), for the audit trail's before and
   * after and for an undo that restores it. It only reads.
   */
  before?(input: Input, context: ToolContext): Promise<unknown> | unknown;
  /** What the call changed, from its input, its output and what `before` read. */
  effect?(input: Input, output: Output, before: unknown): ToolEffect;
  /**
   * Reverses a completed call (spec 004's `Tool.undo`): deletes what it created, restores what it changed.
   * Answers what it did, for the undo's own audit entry. Without it, the action cannot be undone. A thing it
   * would delete that is already gone is no failure: it answers `wasAlreadyGone: true` and changes nothing.
   */
  undo?(
    record: UndoRecord<Input>,
    context: UndoContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /**
   * Reads the thing the call changed as it is now, in the shape of its effect's `after` (null when it is gone),
   * so an undo can see whether someone changed it since and not overwrite that. It only reads.
   */
  current?(record: CurrentRecord<Input>, context: UndoContext): Promise<unknown> | unknown;
  /** Why this action cannot be undone, in the person's words ("A sent email cannot be unsent."). */
  irreversibleBecause?: string;
}

/** A tool's expected failure: it goes back to the model as the call's result, it does not end the run. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** What the model should do next ("Call list_tasks…"): told to it only, never shown as the person's words. */
    readonly modelHint?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * Throws when the call has been stopped (the run was cancelled or the call ran out of time). A tool whose
 * client cannot take an AbortSignal calls this right before its side effect: a call the registry already gave
 * up on must not go on to act, or a retry with the same key could act a second time.
 */
export function assertNotStopped(signal: AbortSignal, what: string): void {
  if (signal.aborted)
    throw new ToolError('cancelled', `Stopped before ${what}: the call was cancelled or ran out of time.`);
}
