import { z } from 'zod';
import type { ToolDeclaration } from '../../llm/model-client';
import type { CallPart } from '../run-state';

export const PROPOSE_PLAN = 'propose_plan';
export const UPDATE_PLAN = 'update_plan';
export const MAX_PLAN_STEPS = 20;

const stepId = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\w.-]+$/, 'a step id is letters, digits, "_", "-" or "."');
const StepInput = z
  .object({
    id: stepId,
    title: z.string().trim().min(1).max(200),
    tool: z.string().trim().min(1).max(100).optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    dependsOn: z.array(stepId).max(MAX_PLAN_STEPS).optional(),
    ask: z.string().trim().min(1).max(2_000).optional(),
    maxAttempts: z.number().int().min(1).max(3).optional(),
  })
  .strict();
export type StepInput = z.infer<typeof StepInput>;

export const ProposeArgs = z
  .object({
    goal: z.string().trim().min(1).max(500),
    steps: z.array(StepInput).min(1).max(MAX_PLAN_STEPS),
  })
  .strict();
export type ProposeArgs = z.infer<typeof ProposeArgs>;

const StepChange = z
  .object({
    id: stepId,
    title: z.string().trim().min(1).max(200).optional(),
    tool: z.string().trim().min(1).max(100).optional(),
    args: z.record(z.string(), z.unknown()).optional(),
    dependsOn: z.array(stepId).max(MAX_PLAN_STEPS).optional(),
    ask: z.string().trim().min(1).max(2_000).optional(),
    maxAttempts: z.number().int().min(1).max(3).optional(),
    status: z.enum(['done', 'skipped']).optional(),
    result: z.string().trim().max(500).optional(),
  })
  .strict();
export type StepChange = z.infer<typeof StepChange>;

export const UpdateArgs = z.object({ steps: z.array(StepChange).min(1).max(MAX_PLAN_STEPS) }).strict();
export type UpdateArgs = z.infer<typeof UpdateArgs>;

const stepSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'A short id, unique in the plan ("find-alex").' },
    title: { type: 'string', description: 'What the step does, for the person to read.' },
    tool: {
      type: 'string',
      description: 'The tool it calls; leave out for your own reasoning or a question.',
    },
    args: {
      type: 'object',
      description:
        'The arguments it will pass. Give real values where you know them (recipients, attendees, channel, task id); write "${step-id}" for one a step finds first.',
    },
    dependsOn: { type: 'array', items: { type: 'string' }, description: 'Steps that must finish first.' },
    ask: { type: 'string', description: 'A question for the person (the step waits for their answer).' },
    maxAttempts: { type: 'integer', description: 'How often a failing tool step may be tried (1 to 3).' },
  },
  required: ['id', 'title'],
} as const;

/** The planner's control tools: the model proposes a plan before acting, and keeps it true as it learns. */
export const PLAN_DECLARATIONS: readonly ToolDeclaration[] = [
  {
    name: PROPOSE_PLAN,
    description:
      'Before a request that needs more than one tool call, propose your plan: the steps, the tool each calls, and which steps wait for which. The person sees it and may approve it whole. A one-step request needs no plan. Steps that do not wait for each other can be called together in one turn.',
    parameters: {
      type: 'object',
      properties: {
        goal: { type: 'string', description: 'What the person wants, in one line.' },
        steps: { type: 'array', items: stepSchema },
      },
      required: ['goal', 'steps'],
    },
  },
  {
    name: UPDATE_PLAN,
    description:
      "Change the plan when you learn something: fill in a step's arguments, add a step, mark your own reasoning step done with its result, or skip a step. A changed recipient or target needs the person's approval again.",
    parameters: {
      type: 'object',
      properties: {
        steps: {
          type: 'array',
          items: {
            ...stepSchema,
            properties: {
              ...stepSchema.properties,
              status: { type: 'string', enum: ['done', 'skipped'] },
              result: { type: 'string', description: 'A short result of a reasoning step.' },
            },
            required: ['id'],
          },
        },
      },
      required: ['steps'],
    },
  },
];

export const isPlanCall = (call: CallPart): boolean =>
  call.name === PROPOSE_PLAN || call.name === UPDATE_PLAN;
