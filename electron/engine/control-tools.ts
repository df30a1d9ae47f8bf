import { z } from 'zod';
import type { ToolDeclaration } from '../llm/model-client';
import type { CallPart } from './run-state';

export const REQUEST_CLARIFICATION = 'request_clarification';
export const REFUSE = 'refuse';

const ClarificationArgs = z.object({ question: z.string().trim().min(1).max(2_000) }).strict();
const RefusalArgs = z
  .object({
    reason: z.string().trim().min(1).max(2_000),
    category: z.enum(['out_of_scope', 'harmful']).optional(),
  })
  .strict();

/**
 * The model's own ways to end a run without acting (spec 002): ask one question when the request is ambiguous,
 * or refuse one that is out of scope. They are the agent's control flow, not tools: nothing runs, the ledger
 * is not touched, and the run's AgentDecision says which it was.
 */
export const CONTROL_DECLARATIONS: readonly ToolDeclaration[] = [
  {
    name: REQUEST_CLARIFICATION,
    description:
      'Ask the person one question instead of acting, when what they want is ambiguous and a wrong guess would matter. Call it alone; the run ends with your question.',
    parameters: {
      type: 'object',
      properties: { question: { type: 'string', description: 'The one question to ask.' } },
      required: ['question'],
    },
  },
  {
    name: REFUSE,
    description:
      'Decline a request you cannot or should not do (outside email, calendar, Slack, tasks and memory, or harmful), with a short polite reason and what you can do instead. Call it alone; the run ends.',
    parameters: {
      type: 'object',
      properties: {
        reason: { type: 'string', description: 'What you tell the person, politely.' },
        category: { type: 'string', enum: ['out_of_scope', 'harmful'] },
      },
      required: ['reason'],
    },
  },
];

export type ControlCall =
  | { kind: 'clarify'; question: string }
  | { kind: 'refuse'; reason: string }
  | { kind: 'invalid'; call: CallPart; message: string };

export const isControlCall = (call: CallPart): boolean =>
  call.name === REQUEST_CLARIFICATION || call.name === REFUSE;

/** The turn's control call, read against its schema, or null when the turn has none. */
export function controlCallOf(calls: readonly CallPart[]): ControlCall | null {
  const call = calls.find(isControlCall);
  if (!call) return null;
  if (call.name === REQUEST_CLARIFICATION) {
    const parsed = ClarificationArgs.safeParse(call.args);
    return parsed.success
      ? { kind: 'clarify', question: parsed.data.question }
      : { kind: 'invalid', call, message: `${REQUEST_CLARIFICATION} needs {"question": "…"}.` };
  }
  const parsed = RefusalArgs.safeParse(call.args);
  return parsed.success
    ? { kind: 'refuse', reason: parsed.data.reason }
    : { kind: 'invalid', call, message: `${REFUSE} needs {"reason": "…"}.` };
}
