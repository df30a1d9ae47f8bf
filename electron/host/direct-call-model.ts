import { NO_GEMINI_KEY_MESSAGE } from '../../shared/no-gemini-key';
import { ModelError, type ModelClient, type ModelRequest, type ModelStreamEvent } from '../llm/model-client';
import { asRecord } from '../store/json';
import { quoted } from '../../shared/quote-words';

/**
 * The model name of a run that another MCP client asked for: its one tool call is given, not chosen, so no
 * language model is asked. The run is otherwise an ordinary run: the same policy, approvals, ledger, audit trail
 * and recovery after a restart.
 */
export const DIRECT_CALL_MODEL = 'deputy-direct-call';
export const DIRECT_CALL_ID = 'mcp-call';

export interface DirectCall {
  /** The MCP client, as it named itself in `initialize` ("claude-ai"), or how it came ("over HTTP"). */
  client: string;
  tool: string;
  args: Record<string, unknown>;
  /** The person asked for it themselves, in one of Deputy's own screens (`client` names it: "the Tasks panel"). */
  isPerson?: boolean;
}

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** The run's prompt: a sentence for the person's history, then the call itself on its last line. */
export function directCallPrompt(call: DirectCall): string {
  const who = call.isPerson ? `You asked, in ${call.client},` : `An MCP client (${call.client}) asked Deputy`;
  return `${who} to run ${call.tool}.\n${JSON.stringify(call)}`;
}

/**
 * The call this run was started for: the last user message that states one. A thread of several direct calls
 * (the Tasks panel's) carries the earlier ones as history; the run's own is the newest. Answers where it sits.
 */
function parseDirectCall(request: ModelRequest): { call: DirectCall; at: number } | null {
  for (let at = request.messages.length - 1; at >= 0; at -= 1) {
    const message = request.messages[at];
    if (message?.role !== 'user') continue;
    const text = message.parts.find((part) => part.kind === 'text')?.text ?? '';
    const call = readCall(text.slice(text.lastIndexOf('\n') + 1));
    if (call) return { call, at };
  }
  return null;
}

function readCall(line: string): DirectCall | null {
  try {
    const value = JSON.parse(line) as Partial<DirectCall>;
    if (typeof value.client !== 'string' || typeof value.tool !== 'string') return null;
    if (typeof value.args !== 'object' || value.args === null) return null;
    return { client: value.client, tool: value.tool, args: value.args, isPerson: value.isPerson === true };
  } catch {
    return null;
  }
}

/**
 * Plays the run's two turns: first the call the client asked for, then, once its result (or refusal) is in,
 * a line that closes the run. A side-effect call states the client's intent, and full confidence: the exact
 * call was asked for, nothing was guessed; the policy decides everything else.
 */
export const directCallModel: ModelClient = {
  async *stream(request): AsyncIterable<ModelStreamEvent> {
    await Promise.resolve();
    const found = parseDirectCall(request);
    if (!found) throw new ModelError('bad_response', 'This run was not started by an MCP client.');
    const { call } = found;
    const isSettled = request.messages
      .slice(found.at + 1)
      .some((message) => message.parts.some((part) => part.kind === 'result'));
    if (isSettled) {
      const text = call.isPerson
        ? `Done what you asked in ${call.client}: ${call.tool}.`
        : `Answered the MCP client ${quoted(call.client)} about ${call.tool}.`;
      yield { type: 'text', text };
    } else {
      const declared = request.tools.find((tool) => tool.name === call.tool);
      const takesMeta = Object.hasOwn(asRecord(declared?.parameters.properties), 'confidence');
      const intent = call.isPerson
        ? `Asked for by you in ${call.client}`
        : `Asked for by the MCP client ${quoted(call.client)}`;
      const meta = { intent, confidence: 1 };
      yield {
        type: 'function_call',
        callId: DIRECT_CALL_ID,
        name: call.tool,
        args: takesMeta ? { ...call.args, ...meta } : call.args,
      };
    }
    yield { type: 'finish', finishReason: 'STOP', usage: USAGE };
  },
};

/** The configured model for the person's runs, the direct-call model for runs an MCP client asked for. */
export function withDirectCalls(configured: ModelClient | null): ModelClient {
  return {
    stream(request) {
      if (request.model === DIRECT_CALL_MODEL) return directCallModel.stream(request);
      if (!configured) throw new ModelError('not_configured', NO_GEMINI_KEY_MESSAGE);
      return configured.stream(request);
    },
  };
}
