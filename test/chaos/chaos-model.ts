import { createHash } from 'node:crypto';
import { callsReply, textReply } from '../fakes/gemini/script';
import type { FakeStep, RecordedRequest } from '../fakes/gemini/types';
import { childCompletion, isChildRequest, parentReply } from './chaos-agent';

/**
 * The scripted model of the chaos runs. It is stateless: the answer is a function of the request alone (which
 * run, how many tool results it already carries), so a turn asked again after a crash gets the same answer,
 * as a well-behaved real model would for the same conversation.
 */

export const CHAOS_RECIPIENT = 'chaos-sink@example.com';
export const CHAOS_CHANNEL = '#general';
/** Every second shape asks for approval somewhere: below this a high-risk call waits for the person. */
const ASKING_CONFIDENCE = 0.8;
const SURE = 0.95;

export type SideEffectTool = 'gmail_send' | 'calendar_event_create' | 'slack_send';
export const SIDE_EFFECT_TOOLS: readonly SideEffectTool[] = [
  'gmail_send',
  'calendar_event_create',
  'slack_send',
];

export interface PlannedCall {
  name: SideEffectTool | 'propose_plan';
  args: Record<string, unknown>;
}

/** How run K spends its turns; the shapes rotate so every kind of pause and batch is killed often. */
export type RunShape = 'serial' | 'mail_asks' | 'batched' | 'slack_asks' | 'delegated' | 'planned';
const SHAPES: readonly RunShape[] = ['serial', 'mail_asks', 'batched', 'slack_asks', 'delegated', 'planned'];

export const chaosPrompt = (k: number): string => `chaos run ${k}`;
/** The subject, event title and Slack text of run K's effects: how the fakes' records are matched to runs. */
export const chaosMarker = (k: number): string => `chaos-${k}`;
export const finalText = (k: number): string => `done ${chaosMarker(k)}`;

export function runShape(k: number): RunShape {
  return SHAPES[k % SHAPES.length] ?? 'serial';
}

/** Reads K back from a run's prompt; null for anything that is not a chaos run. */
export function runNumberOf(prompt: string): number | null {
  const match = /chaos run (\d+)/.exec(prompt);
  return match ? Number(match[1]) : null;
}

/** The tool calls of run K, one array per model turn. */
export function chaosPlan(k: number): PlannedCall[][] {
  const shape = runShape(k);
  const marker = chaosMarker(k);
  // One hour per run from a fixed day, so no two runs book the same slot.
  const start = new Date(Date.UTC(2030, 0, 7, 9) + k * 3_600_000);
  const end = new Date(start.getTime() + 30 * 60_000);
  const mail: PlannedCall = {
    name: 'gmail_send',
    args: {
      to: [CHAOS_RECIPIENT],
      subject: marker,
      body: `Chaos check ${k}: this mail must arrive exactly once.`,
      intent: 'Send the chaos check mail',
      // A delegated run's child asks for its mail: its approval reaches the person through its parent.
      confidence:
        shape === 'mail_asks' || shape === 'delegated' || shape === 'planned' ? ASKING_CONFIDENCE : SURE,
    },
  };
  const event: PlannedCall = {
    name: 'calendar_event_create',
    args: {
      summary: marker,
      start: isoWithOffset(start),
      end: isoWithOffset(end),
      intent: 'Book the chaos check slot',
      confidence: SURE,
    },
  };
  const post: PlannedCall = {
    name: 'slack_send',
    args: {
      channel: CHAOS_CHANNEL,
      text: marker,
      intent: 'Post the chaos check',
      confidence: shape === 'slack_asks' ? ASKING_CONFIDENCE : SURE,
    },
  };
  if (shape === 'planned') return [[proposal(k, [mail, event, post])], [mail, event], [post]];
  return shape === 'batched' ? [[mail, event], [post]] : [[mail], [event], [post]];
}

/** A planned run's plan: the mail and the event do not wait for each other, the post waits for both. */
function proposal(k: number, [mail, event, post]: PlannedCall[]): PlannedCall {
  const step = (id: string, call: PlannedCall | undefined, dependsOn: string[] = []) => ({
    id,
    title: `${id} for ${chaosMarker(k)}`,
    tool: call?.name,
    args: call?.args ?? {},
    dependsOn,
  });
  return {
    name: 'propose_plan',
    args: {
      goal: `Check ${chaosMarker(k)}`,
      steps: [step('mail', mail), step('event', event), step('post', post, ['mail', 'event'])],
    },
  };
}

/** What the model answers to a request: the next turn of the plan, found by counting the results already sent. */
export function chaosReply(request: RecordedRequest): { k: number | null; answered: number; step: FakeStep } {
  const contents = request.body.contents ?? [];
  const k = contents
    .filter((content) => content.role !== 'model')
    .flatMap((content) => content.parts ?? [])
    .map((part) => (part.text === undefined ? null : runNumberOf(part.text)))
    .find((found) => found !== null);
  const answered = contents
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse !== undefined).length;
  if (k === undefined || k === null) {
    return { k: null, answered, step: textReply('This model only plays chaos runs.') };
  }
  const isChild = isChildRequest(request);
  if (runShape(k) === 'delegated' && !isChild)
    return { k, answered, step: withLatency(parentReply(k, answered, finalText(k)), k, answered) };
  let seen = 0;
  for (const turn of chaosPlan(k)) {
    if (answered < seen + turn.length) {
      const reply = callsReply(turn.map((call) => ({ name: call.name, args: call.args })));
      return { k, answered, step: withLatency(reply, k, answered) };
    }
    seen += turn.length;
  }
  const last = isChild ? childCompletion(finalText(k)) : textReply(finalText(k), { chunks: 3, gapMs: 5 });
  return { k, answered, step: withLatency(last, k, answered) };
}

/** 10–60 ms of thinking, the same for the same turn, so a kill can land while the model answers. */
function withLatency(step: FakeStep, k: number, answered: number): FakeStep {
  const byte = createHash('sha256').update(`${k}/${answered}`).digest()[0] ?? 0;
  return { kind: 'delay', ms: 10 + (byte % 51), step };
}

function isoWithOffset(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
