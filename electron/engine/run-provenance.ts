import type { ContentSource, RunProvenance } from '../policy/types';
import type { ToolRegistry } from '../tools/registry';
import type { ContentOrigin, Tool } from '../tools/tool';
import { SUMMARY_HEADER } from './context-window';
import type { ResultPart, RunState } from './run-state';
import { PLAN_FINDINGS, PLAN_NOTE } from './plans/plan-note';
import { PROPOSE_PLAN, UPDATE_PLAN } from './plans/plan-tools';
import { quoted } from '../../shared/quote-words';

const ATTACHED = /\[ATTACHED CONTEXT\]([\s\S]*?)\[END ATTACHED CONTEXT\]/;
/** The knowledge block: event titles, task text and contact names others wrote, gathered by Deputy. */
const KNOWLEDGE = /\[KNOWN CONTEXT\][\s\S]*?\[END KNOWN CONTEXT\]/;
/** The engine's own notes to the model (final warnings) are neither the person's words nor content. */
const ENGINE_NOTE = '[FINAL WARNING]';

/**
 * Where the words of a run came from, read from its state alone, so a run picked up after a restart knows
 * exactly what it knew before:
 * - the person's words: their prompt and earlier turns, and the system instruction (their profile, the
 *   memories they confirmed, what they attached) except its knowledge block, which others' words fill;
 * - content from outside: every tool result, labelled by the tool with its source (which mail and sender,
 *   which event, which Slack message), and the summary that replaced earlier steps;
 * - Deputy's own earlier replies in the conversation, which may repeat what it read.
 */
export function runProvenance(state: RunState, registry: ToolRegistry): RunProvenance {
  const attached = ATTACHED.exec(state.systemInstruction)?.[1] ?? '';
  const knowledge = KNOWLEDGE.exec(state.systemInstruction)?.[0] ?? '';
  const trusted: string[] = [state.systemInstruction.replace(KNOWLEDGE, '')];
  const request: string[] = [attached];
  const sources: ContentSource[] = knowledge
    ? [
        {
          label: 'the context Deputy gathered from your calendar, tasks and contacts',
          text: lower(knowledge),
        },
      ]
    : [];
  const earlierReplies: ContentSource[] = [];
  const promptIndex = lastPromptIndex(state);
  state.messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.kind === 'result') sources.push(...resultSources(part, registry, trusted));
      if (part.kind !== 'text') continue;
      if (message.role === 'model') {
        // Deputy's words in this run are its own working; earlier replies may repeat content it had read.
        if (index < promptIndex)
          earlierReplies.push({
            label: "Deputy's earlier reply in this conversation",
            text: lower(part.text),
          });
      } else if (part.text.startsWith(PLAN_FINDINGS)) {
        // What an earlier run's steps found, carried into the run that goes on with the plan: content.
        sources.push({ label: "what the plan's steps found earlier", text: lower(part.text) });
      } else if (part.text.startsWith(PLAN_NOTE)) {
        // Deputy's note of where the plan stands: the model's own step titles, neither the person's nor content.
        continue;
      } else if (part.text.startsWith(SUMMARY_HEADER)) {
        sources.push({
          label: 'the summary of what Deputy read earlier in this run',
          text: lower(part.text),
        });
      } else if (!part.text.startsWith(ENGINE_NOTE)) {
        trusted.push(part.text);
        request.push(part.text);
      }
    }
  });
  for (const part of state.turnResults) sources.push(...resultSources(part, registry, trusted));
  sources.push(...mcpDescriptions(registry));
  return {
    trusted: lower(trusted.join('\n')),
    request: lower(request.join('\n')),
    sources,
    earlierReplies,
  };
}

/** The index of the message that holds this run's prompt: the last one with the person's text in it. */
function lastPromptIndex(state: RunState): number {
  for (let index = state.messages.length - 1; index >= 0; index -= 1) {
    const message = state.messages[index];
    const isPrompt =
      message?.role === 'user' &&
      message.parts.some(
        (part) =>
          part.kind === 'text' &&
          !part.text.startsWith(ENGINE_NOTE) &&
          !part.text.startsWith(SUMMARY_HEADER) &&
          !part.text.startsWith(PLAN_NOTE),
      );
    if (isPrompt) return index;
  }
  return 0;
}

/**
 * A result's content, as its tool labels it. An error is Deputy's own message, not content. A result of a
 * side effect only echoes what was decided, unless its tool says what of it came from the service.
 */
function resultSources(
  part: ResultPart,
  registry: ToolRegistry,
  trusted: string[],
): readonly ContentSource[] {
  const tool = registry.get(part.name);
  // A result part never changes once made, and a tool's provenance reads only the result: what it yields is
  // kept, so a run does not read every earlier result again (and parse it, and lower-case it) on each call.
  const known = readResults.get(part);
  if (known && known.tool === tool) {
    trusted.push(...known.confirmed);
    return known.sources;
  }
  const confirmed: string[] = [];
  const sources = Object.freeze(readResult(part, tool, confirmed));
  readResults.set(part, { tool, sources, confirmed });
  trusted.push(...confirmed);
  return sources;
}

/** What each result part yielded, for the tool (by identity) that read it: a tool replaced reads it again. */
const readResults = new WeakMap<
  ResultPart,
  { tool: Tool | undefined; sources: readonly ContentSource[]; confirmed: readonly string[] }
>();

function readResult(part: ResultPart, tool: Tool | undefined, confirmed: string[]): ContentSource[] {
  if ('error' in part.result) return [];
  // The plan tools answer with the model's own plan and Deputy's estimate: nothing from outside.
  if (!tool && (part.name === PROPOSE_PLAN || part.name === UPDATE_PLAN)) return [];
  let origins: ContentOrigin[];
  try {
    origins = tool?.provenance
      ? tool.provenance(part.result)
      : tool?.hasSideEffects
        ? []
        : [{ label: `what ${part.name} returned`, text: JSON.stringify(part.result) }];
  } catch {
    // A result the tool cannot read back (an older shape) still counts, whole, as content from outside.
    origins = [{ label: `what ${part.name} returned`, text: JSON.stringify(part.result) }];
  }
  return origins.flatMap((origin) => {
    if (origin.isConfirmed) {
      confirmed.push(origin.text);
      return [];
    }
    return [Object.freeze({ label: origin.label, text: lower(origin.text) })];
  });
}

/**
 * An MCP server wrote its tools' descriptions, and the model reads them in every run: they are content from
 * outside the person, so an address or an order planted in one is judged like one planted in a mail.
 */
function mcpDescriptions(registry: ToolRegistry): ContentSource[] {
  return registry.list().flatMap((tool) =>
    tool.mcpServer === undefined
      ? []
      : [
          {
            label: `the description of ${tool.name} (from the MCP server ${quoted(tool.mcpServer)})`,
            text: lower(tool.description),
          },
        ],
  );
}

const lower = (text: string): string => text.toLowerCase();
