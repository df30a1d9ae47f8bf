import type { AgentDefinition } from '../agents/definition';

/** The agent's SOP in its instruction: the phases in order, what each allows, and the gates between them. */
export function sopBlock(definition: AgentDefinition): string {
  const sop = definition.sop;
  if (!sop) return '';
  const phases = sop.phases.map((phase, index) => {
    const tools = phase.allowedTools.length > 0 ? phase.allowedTools.join(', ') : 'no tools: think and write';
    return `${index + 1}. ${phase.name} — ${tools}${phase.description ? `. ${phase.description}` : ''}`;
  });
  const gates = sop.qualityGates.map(
    (gate) => `Before leaving "${gate.after}": at least ${gate.min} successful tool result(s).`,
  );
  return [
    '[SOP] Work in these phases, in order. Calling a tool of a later phase moves you on to it; you cannot go back.',
    ...phases,
    ...gates,
    'complete_task belongs to the last phase.',
  ].join('\n');
}
