import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { callsReply, textReply } from '../fakes/gemini/script';
import type { FakeStep, RecordedRequest } from '../fakes/gemini/types';

/**
 * The delegated shape of the chaos runs: the chat run hands its work to the agent `chaos_courier`, whose child
 * run sends, books and posts (its mail asks for approval), then completes; the chat run then answers. A kill
 * can land in the parent, in the child, or while the child waits for its approval: the tree must resume whole.
 */
export const CHAOS_AGENT = 'chaos_courier';

export function writeChaosAgent(dataDir: string): void {
  mkdirSync(join(dataDir, 'agents'), { recursive: true });
  const definition = {
    name: CHAOS_AGENT,
    description: 'Delivers a chaos check: one mail, one event and one Slack post.',
    inputConfig: {
      inputs: { task: { description: 'The chaos run to deliver.', type: 'string', required: true } },
    },
    outputConfig: {
      outputName: 'result',
      description: 'What was delivered.',
      schema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
    },
    processOutput: '${note}',
    promptConfig: { query: 'Deliver this: ${task}', systemPrompt: 'You deliver chaos checks.' },
    toolConfig: { tools: ['gmail_send', 'calendar_event_create', 'slack_send'] },
    runConfig: { max_turns: 8 },
  };
  writeFileSync(join(dataDir, 'agents', `${CHAOS_AGENT}.yaml`), stringify(definition));
}

/** A request of the child run: only agents are offered complete_task. */
export function isChildRequest(request: RecordedRequest): boolean {
  return (request.body.tools ?? []).some((tool) =>
    (tool.functionDeclarations ?? []).some((declaration) => declaration.name === 'complete_task'),
  );
}

/** The chat run's side of a delegated run: call the courier once, then answer with the final text. */
export function parentReply(k: number, answered: number, finalText: string): FakeStep {
  return answered === 0
    ? callsReply([{ name: CHAOS_AGENT, args: { task: `chaos run ${k}` } }])
    : textReply(finalText, { chunks: 3, gapMs: 5 });
}

/** The child's last turn, once its plan is done. */
export function childCompletion(finalText: string): FakeStep {
  return callsReply([{ name: 'complete_task', args: { result: { note: finalText } } }]);
}
