import {
  DEFAULT_RATE_LIMITS,
  NO_CONTENT,
  type PolicyContext,
  type PolicyTool,
} from '../../../electron/policy/types';
import { DEFAULT_AUTONOMY } from '../../../shared/contract/policy';

/**
 * A policy context for the tests: autonomous trust, the default autonomy, nothing used up, first contact
 * on, @mycompany.com and sam@partner.io allow-listed and known; nothing read from outside.
 */
export function policyContext(overrides: Partial<PolicyContext> = {}): PolicyContext {
  return {
    sideEffectsEnabled: true,
    grantedTools: 'all',
    limits: DEFAULT_RATE_LIMITS,
    usage: { actionsLastMinute: 0, externalCallsLastHour: 0, modelTokensLastHour: 0 },
    trustLevel: 'autonomous',
    autonomy: DEFAULT_AUTONOMY,
    allowlist: ['@mycompany.com', 'sam@partner.io'],
    rules: [],
    now: new Date('2026-11-21T12:00:00Z'),
    requireApprovalForFirstContact: true,
    isKnownRecipient: (address) => address.endsWith('@mycompany.com') || address === 'sam@partner.io',
    provenance: NO_CONTENT,
    ...overrides,
  };
}

/** The policy's view of the built-in tools the policy tests use: what decide() knows of each. */

const recipientsOf = (args: Record<string, unknown>): string[] =>
  ['to', 'cc', 'bcc'].flatMap((field) => {
    const value = args[field];
    return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
  });

export const gmailSend: PolicyTool = {
  name: 'gmail_send',
  category: 'external',
  risk: 'high',
  hasSideEffects: true,
  actionKind: 'email.send',
  isExternal: true,
  recipients: recipientsOf,
};
export const gmailDraft: PolicyTool = {
  ...gmailSend,
  name: 'gmail_draft_create',
  category: 'draft',
  risk: 'medium',
  actionKind: 'email.draft',
};
export const addTask: PolicyTool = {
  name: 'add_task',
  category: 'create',
  risk: 'low',
  hasSideEffects: true,
  actionKind: 'task.create',
};
export const deleteTask: PolicyTool = {
  name: 'delete_task',
  category: 'delete',
  risk: 'medium',
  hasSideEffects: true,
  actionKind: 'task.delete',
};
export const listTasks: PolicyTool = {
  name: 'list_tasks',
  category: 'query',
  risk: 'low',
  hasSideEffects: false,
};
export const slackSend: PolicyTool = {
  name: 'slack_send',
  category: 'external',
  risk: 'medium',
  hasSideEffects: true,
  actionKind: 'slack.send',
  isExternal: true,
};

export const eventUpdate: PolicyTool = {
  name: 'calendar_event_update',
  category: 'update',
  risk: 'medium',
  hasSideEffects: true,
  actionKind: 'calendar.update',
  isExternal: true,
  recipients: (args) => [...((args.addAttendees as string[] | undefined) ?? [])],
};
export const saveMemory: PolicyTool = {
  name: 'save_memory',
  category: 'create',
  risk: 'low',
  hasSideEffects: true,
  actionKind: 'memory.save',
};
