import { NO_GEMINI_KEY_MESSAGE } from '../../shared/no-gemini-key';
import { ModelError, type ModelClient, type ModelRequest, type ModelStreamEvent } from '../llm/model-client';
import { asRecord } from '../store/json';

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
}

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** The run's prompt: a sentence for the person's history, then the call itself on its last line. */
export function directCallPrompt(call: DirectCall): string {
  return `An MCP client (${call.client}) asked Deputy to run ${call.tool}.\n${JSON.stringify(call)}`;
}

function parseDirectCall(request: ModelRequest): DirectCall | null {
  const first = request.messages.find((message) => message.role === 'user');
  const text = first?.parts.find((part) => part.kind === 'text')?.text ?? '';
  try {
    const value = JSON.parse(text.slice(text.lastIndexOf('\n') + 1)) as Partial<DirectCall>;
    if (typeof value.client !== 'string' || typeof value.tool !== 'string') return null;
    if (typeof value.args !== 'object' || value.args === null) return null;
    return { client: value.client, tool: value.tool, args: value.args };
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
    const call = parseDirectCall(request);
    if (!call) throw new ModelError('bad_response', 'This run was not started by an MCP client.');
    const isSettled = request.messages.some((message) =>
      message.parts.some((part) => part.kind === 'result'),
    );
    if (isSettled) {
      yield { type: 'text', text: `Answered the MCP client "${call.client}" about ${call.tool}.` };
    } else {
      const declared = request.tools.find((tool) => tool.name === call.tool);
      const takesMeta = Object.hasOwn(asRecord(declared?.parameters.properties), 'confidence');
      const meta = { intent: `Asked for by the MCP client "${call.client}"`, confidence: 1 };
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
