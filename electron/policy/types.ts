import type { ActionKind, AutonomyLevel, PolicyRule, TrustLevel } from '../../shared/contract/policy';
import type { RiskLevel, ToolCategory } from '../tools/tool';

/** What the policy needs to know about a tool; it never runs one. */
export interface PolicyTool {
  name: string;
  category: ToolCategory;
  risk: RiskLevel;
  hasSideEffects: boolean;
  /** The autonomy setting that governs this tool's side effect. */
  actionKind?: ActionKind;
  /** Whether a call reaches an outside service (counts against the external-call rate limit). */
  isExternal?: boolean;
  /** Every address the call would reach (to, cc and bcc for mail). */
  recipients?: (args: Record<string, unknown>) => string[];
}

/** The meta-parameters a side-effect call carries: stated by the model, stripped before execution. */
export interface CallMeta {
  intent?: string;
  reasoning?: string;
  confidence?: number;
  assumptions?: string[];
}

export interface PolicyCall {
  tool: PolicyTool;
  args: Record<string, unknown>;
  meta: CallMeta;
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
  sideEffectsEnabled: boolean;
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
}

export type PolicyDecision =
  | { kind: 'allow'; rule: string; reason: string; shouldNotify: boolean }
  | { kind: 'require_approval'; level: 'confirm' | 'review'; reason: string; rule: string }
  | { kind: 'deny'; reason: string; rule: string; outcome: 'REFUSAL:RATE_LIMITED' | 'REFUSAL:OUT_OF_SCOPE' }
  | { kind: 'clarify'; reason: string; rule: string };

export const DEFAULT_RATE_LIMITS: RateLimits = {
  actionsPerMinute: 10,
  externalCallsPerHour: 50,
  modelTokensPerHour: 100_000,
};

export const CONFIDENCE = { clarifyBelow: 0.7, highRiskApprovalBelow: 0.9 } as const;
