import type { ActionKind, AutonomyLevel, Settings } from './contract';

/*
 * The Permissions settings in the words Settings shows them: its form's labels, and the policy's reasons that name
 * a setting ("Your setting for “Add a task” is “Ask me first”.", "raise “Actions per minute” in Settings →
 * Permissions"), so a reason names what the person can find.
 */

export const ACTION_KIND_LABELS: Record<ActionKind, string> = {
  'email.send': 'Send an email',
  'email.draft': 'Draft an email',
  'calendar.create': 'Create a calendar event',
  'calendar.update': 'Change a calendar event',
  'task.create': 'Add a task',
  'task.update': 'Change a task',
  'task.delete': 'Delete a task',
  'slack.send': 'Post to Slack',
  'memory.save': 'Remember something',
};

export const AUTONOMY_LABELS: Record<AutonomyLevel, string> = {
  auto: 'Just do it',
  notify: 'Do it and tell me',
  confirm: 'Ask me first',
  review: 'Show me a draft first',
};

/** The Rate limits fields, as Settings → Permissions labels them. */
export const RATE_LIMIT_LABELS: Record<keyof Settings['rateLimits'], string> = {
  actionsPerMinute: 'Actions per minute',
  externalCallsPerHour: 'Calls to outside services per hour',
  modelTokensPerHour: 'Model tokens per hour',
};
