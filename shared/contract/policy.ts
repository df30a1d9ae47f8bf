import { z } from 'zod';

export const TrustLevel = z.enum(['supervised', 'delegated', 'autonomous']);
export type TrustLevel = z.infer<typeof TrustLevel>;

export const AutonomyLevel = z.enum(['auto', 'notify', 'confirm', 'review']);
export type AutonomyLevel = z.infer<typeof AutonomyLevel>;

/** The kinds of side effect the user sets autonomy for, named as the user sees them. */
export const ActionKind = z.enum([
  'email.send',
  'email.draft',
  'calendar.create',
  'calendar.update',
  'task.create',
  'task.update',
  'task.delete',
  'slack.send',
  'memory.save',
]);
export type ActionKind = z.infer<typeof ActionKind>;

export const DEFAULT_AUTONOMY: Record<ActionKind, AutonomyLevel> = {
  'email.send': 'confirm',
  'email.draft': 'notify',
  'calendar.create': 'confirm',
  'calendar.update': 'confirm',
  'task.create': 'auto',
  'task.update': 'auto',
  'task.delete': 'confirm',
  'slack.send': 'confirm',
  'memory.save': 'notify',
};

/**
 * A rule the user made ("gmail_send to *@mycompany.com: allow for 1 hour"): one tool, one argument scope, an optional
 * expiry. `field` names an argument, or `recipients` for every to/cc/bcc address; every value must match `pattern`.
 */
export const PolicyRule = z.object({
  id: z.string().min(1).max(100),
  tool: z.string().min(1).max(100),
  field: z.string().min(1).max(100),
  pattern: z.string().trim().min(1).max(300),
  effect: z.literal('allow'),
  expiresAt: z.string().datetime().nullable(),
  createdAt: z.string(),
});
export type PolicyRule = z.infer<typeof PolicyRule>;

export const EmailAddress = z.string().trim().toLowerCase().email();
