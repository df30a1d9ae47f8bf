import { z } from 'zod';
import type { CallMeta } from '../policy/types';

/**
 * The meta-parameters every side-effect tool asks the model to fill. They are the model's own account of the
 * call, stored with the action and shown to the user; they are stripped before the tool runs.
 */
export const META_FIELDS = ['intent', 'reasoning', 'confidence', 'assumptions'] as const;

const CallMetaSchema = z.object({
  intent: z.string().trim().max(500).optional(),
  reasoning: z.string().trim().max(2_000).optional(),
  confidence: z.number().min(0).max(1).optional(),
  assumptions: z
    .array(
      z.union([
        z.string().trim().max(500),
        z.object({
          statement: z.string().trim().min(1).max(500),
          category: z.enum(['intent', 'context', 'preference', 'inference']).optional(),
          evidence: z.array(z.string().trim().max(500)).max(10).optional(),
          confidence: z.number().min(0).max(1).optional(),
        }),
      ]),
    )
    .max(20)
    .optional(),
});

export const META_JSON_SCHEMA: Record<string, Record<string, unknown>> = {
  intent: { type: 'string', description: 'What the user wants done, in one sentence.' },
  reasoning: { type: 'string', description: 'Why this call, with these arguments, does that.' },
  confidence: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    description:
      'How sure you are (0..1) that this is what the user wants. Below 0.7, ask instead of acting.',
  },
  assumptions: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        statement: { type: 'string', description: 'What you assumed, in one sentence.' },
        category: { type: 'string', enum: ['intent', 'context', 'preference', 'inference'] },
        evidence: { type: 'array', items: { type: 'string' }, description: 'What makes you think so.' },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
      },
      required: ['statement', 'category'],
    },
    description: 'Anything you assumed that the user did not say (the person can verify or correct each).',
  },
};

export type MetaSplit =
  { ok: true; args: Record<string, unknown>; meta: CallMeta } | { ok: false; error: z.ZodError };

/** Separates the meta-parameters from the tool's own arguments and checks them. */
export function splitMeta(raw: unknown): MetaSplit {
  const record =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const args: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if ((META_FIELDS as readonly string[]).includes(key)) meta[key] = value;
    else args[key] = value;
  }
  const parsed = CallMetaSchema.safeParse(meta);
  if (!parsed.success) {
    return { ok: false, error: parsed.error };
  }
  return { ok: true, args, meta: stripUndefined(parsed.data) };
}

/**
 * Assumptions come as sentences or as spec 004's objects: `assumptions` keeps the sentences (what approvals and
 * the clarifying question show) and `assumptionDetails` the structure the audit trail records.
 */
function stripUndefined(meta: z.infer<typeof CallMetaSchema>): CallMeta {
  const { assumptions, ...rest } = meta;
  const kept = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  ) as CallMeta;
  if (!assumptions) return kept;
  const details = assumptions.map((assumption) =>
    typeof assumption === 'string'
      ? { statement: assumption, category: 'inference' as const, evidence: [], confidence: null }
      : {
          statement: assumption.statement,
          category: assumption.category ?? ('inference' as const),
          evidence: assumption.evidence ?? [],
          confidence: assumption.confidence ?? null,
        },
  );
  return { ...kept, assumptions: details.map((detail) => detail.statement), assumptionDetails: details };
}
