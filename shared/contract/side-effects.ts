import { z } from 'zod';

/**
 * "Pause all side effects": a switch the person flips at run time (tray, banner, Settings, HTTP). While it is
 * on, nothing is sent, changed or deleted anywhere; reads still work. It is a core setting in SQLite, so the
 * headless host and the desktop share it, and every flip is an audit entry.
 */
export const SideEffectsState = z.object({
  /** The person paused side effects and has not resumed them. */
  isPaused: z.boolean(),
  /** AGENT_SIDE_EFFECTS_ENABLED=false at start-up: off for the whole process, whatever the switch says. */
  isDisabledByEnvironment: z.boolean(),
  /** When the switch last changed (ISO), or null if it never has. */
  changedAt: z.string().nullable(),
});
export type SideEffectsState = z.infer<typeof SideEffectsState>;

export const SideEffectsGetInput = z.object({}).strict().default({});
export const SideEffectsSetInput = z.object({ isPaused: z.boolean() }).strict();
export type SideEffectsSetInput = z.infer<typeof SideEffectsSetInput>;

export const SideEffectsChangedFilter = z.object({}).strict().default({});
export const SideEffectsChangedEvent = z.object({
  type: z.literal('sideEffects.changed'),
  state: SideEffectsState,
});
export type SideEffectsChangedEvent = z.infer<typeof SideEffectsChangedEvent>;

/*
 * Side effects switched off at start-up (AGENT_SIDE_EFFECTS_ENABLED=false): no button turns them back on, so the
 * words say what to do instead, never the variable's name.
 */
const SWITCHED_OFF = 'Deputy was started with side effects switched off';
const SWITCH_ON = 'To let it act, start Deputy again with side effects switched on.';
/** What the policy says of a side effect refused while they are off (the model reads it too). */
export const SWITCHED_OFF_MESSAGE = `${SWITCHED_OFF}, so it did not send, change or delete anything. ${SWITCH_ON}`;
/** What the pause banner and Settings → Permissions say while they are off. */
export const SWITCHED_OFF_NOTICE = `${SWITCHED_OFF}: it reads and answers, but sends, changes and deletes nothing. ${SWITCH_ON}`;

/** What the policy, an approval and a held run say while side effects are paused. */
export const PAUSED_MESSAGE =
  'All side effects are paused, so Deputy did not send, change or delete anything. Press Resume (in the tray menu, the banner or Settings) to let Deputy act again.';
