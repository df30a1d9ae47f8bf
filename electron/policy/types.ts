import type { ActionKind, AutonomyLevel, PolicyRule, TrustLevel } from '../../shared/contract/policy';
import type { Reach, RiskLevel, ToolCategory } from '../tools/tool';

export type { Reach, Recipient } from '../tools/tool';

/** What the policy needs to know about a tool; it never runs one. */
export interface PolicyTool {
  name: string;
  category: ToolCategory;
  risk: RiskLevel;
  hasSideEffects: boolean;
  /** The autonomy setting that governs this tool's side effect. */
  actionKind?: ActionKind;
  /** The person's autonomy for this very tool (an MCP tool's setting); over `actionKind`'s when set. */
  autonomy?: AutonomyLevel | null;
  /** Whether a call reaches an outside service (counts against the external-call rate limit). */
  isExternal?: boolean;
  /** The addresses the model wrote into the call (to, cc and bcc for mail, added attendees, the channel). */
  recipients?: (args: Record<string, unknown>) => string[];
}

/** One piece of content that entered the run from outside the person, and where it came from. */
export interface ContentSource {
  /** Where it came from, to finish the sentence "appears only in …": "a mail from news@x.io (“Digest”)". */
  label: string;
  /** Its text, lower case. */
  text: string;
}

/**
 * Where the words of a run came from: the person's own (trusted) and content read from mail, events, Slack,
 * tools (sources). Judged against it, an action that content could have steered is held for the person.
 */
export interface RunProvenance {
  /** Lower case: the person's prompt and earlier turns, attached context, their profile, confirmed memories. */
  trusted: string;
  /** Lower case: what the person asked in this conversation (prompt, earlier turns, attached context). */
  request: string;
  /** Content from outside that entered the run; empty when nothing has. */
  sources: ContentSource[];
  /** Deputy's replies earlier in the conversation: they may repeat what it read then. */
  earlierReplies: ContentSource[];
}

/** A run where nothing from outside has been read (and the person said nothing): the content rules stay quiet. */
export const NO_CONTENT: RunProvenance = { trusted: '', request: '', sources: [], earlierReplies: [] };

/** The meta-parameters a side-effect call carries: stated by the model, stripped before execution. */
export interface CallMeta {
  intent?: string;
  reasoning?: string;
  confidence?: number;
  assumptions?: string[];
  /** The same assumptions with spec 004's structure, when the model gave it (category, evidence, confidence). */
  assumptionDetails?: {
    statement: string;
    category: 'intent' | 'context' | 'preference' | 'inference';
    evidence: string[];
    confidence: number | null;
  }[];
}

export interface PolicyCall {
  tool: PolicyTool;
  args: Record<string, unknown>;
  meta: CallMeta;
  /** Everyone the effect reaches; without it, the addresses the model wrote are all it reaches. */
  reach?: Reach;
}

export interface RateLimits {
  actionsPerMinute: number;
  externalCallsPerHour: number;
  modelTokensPerHour: number;
}

export interface RateUsage {
  actionsLastMinute: number;
  externalCallsLastHour: number;
  modelTokensLastHour: number;
}

export interface PolicyContext {
  /** AGENT_SIDE_EFFECTS_ENABLED: off for the whole process, set at start-up. */
  sideEffectsEnabled: boolean;
  /** "Pause all side effects", flipped by the person at run time (tray, banner, Settings, HTTP). */
  sideEffectsPaused?: boolean;
  /** The agent's granted tools; 'all' for the default assistant. */
  grantedTools: ReadonlySet<string> | 'all';
  limits: RateLimits;
  usage: RateUsage;
  trustLevel: TrustLevel;
  autonomy: Record<ActionKind, AutonomyLevel>;
  allowlist: readonly string[];
  rules: readonly PolicyRule[];
  now: Date;
  requireApprovalForFirstContact: boolean;
  isKnownRecipient: (address: string) => boolean;
  provenance: RunProvenance;
}

export type PolicyDecision =
  | { kind: 'allow'; rule: string; reason: string; shouldNotify: boolean }
  | {
      kind: 'require_approval';
      level: 'confirm' | 'review';
      reason: string;
      rule: string;
      /** Where the call's content came from, when content read in the run could have steered it. */
      origins?: string[];
    }
  | { kind: 'deny'; reason: string; rule: string; outcome: 'REFUSAL:RATE_LIMITED' | 'REFUSAL:OUT_OF_SCOPE' }
  | { kind: 'clarify'; reason: string; rule: string };

export const DEFAULT_RATE_LIMITS: RateLimits = {
  actionsPerMinute: 10,
  externalCallsPerHour: 50,
  modelTokensPerHour: 100_000,
};

export const CONFIDENCE = { clarifyBelow: 0.7, highRiskApprovalBelow: 0.9 } as const;
