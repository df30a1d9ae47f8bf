import type { ApprovalPreview } from '../../shared/contract';
import { recipientWords } from '../../shared/target-words';
import type { Reach } from '../policy/types';
import type { Tool } from '../tools/tool';

/** What the person sees of a call before approving it: the tool's own preview, and everyone it reaches. */
export function previewOf(tool: Tool, input: unknown, reach?: Reach): ApprovalPreview {
  const preview = basePreview(tool, input, reach);
  // When the effect reaches people the arguments do not name (an update tells every attendee), all of them
  // are listed, so the person sees who will be told.
  const named = new Set((tool.recipients?.(input) ?? []).map((address) => address.toLowerCase()));
  const isBeyondNamed = reach?.recipients.some((recipient) => !named.has(recipient.address.toLowerCase()));
  return reach && isBeyondNamed ? { ...preview, reach: reach.recipients } : preview;
}

function basePreview(tool: Tool, input: unknown, reach?: Reach): ApprovalPreview {
  if (tool.preview) return tool.preview(input, reach);
  const args = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  return {
    title: `Run ${tool.name}`,
    fields: Object.entries(args).map(([label, value]) => ({
      label,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
  };
}

export function previewText(preview: ApprovalPreview): string {
  const lines = [preview.title, ...preview.fields.map((field) => `${field.label}: ${field.value}`)];
  for (const change of preview.changes ?? [])
    lines.push(`${change.label}: ${change.before} → ${change.after}`);
  if (preview.reach && preview.reach.length > 0)
    lines.push(
      `Reaches: ${preview.reach.map((recipient) => `${recipientWords(recipient)} (${recipient.role})`).join(', ')}`,
    );
  for (const origin of preview.origins ?? []) lines.push(`Where it came from: ${origin}`);
  if (preview.body) lines.push('', preview.body);
  return lines.join('\n');
}
