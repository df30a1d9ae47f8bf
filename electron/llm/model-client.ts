/**
 * The engine talks to a model only through this interface; the Gemini adapter is one implementation,
 * the scripted client of the tests and the bench is another.
 */
export type ModelPart =
  | { kind: 'text'; text: string }
  /**
   * `signature` is Gemini's opaque thoughtSignature for the call. It lives in the message, not in the
   * client, so a run resumed after a restart sends it back (Gemini 3 rejects calls without it).
   */
  | { kind: 'call'; callId: string; name: string; args: Record<string, unknown>; signature?: string }
  | { kind: 'result'; callId: string; name: string; result: Record<string, unknown> };

export interface ModelMessage {
  role: 'user' | 'model';
  parts: ModelPart[];
}

export interface ToolDeclaration {
  name: string;
  description: string;
  /** JSON Schema of the arguments, passed to Gemini as `parametersJsonSchema`. */
  parameters: Record<string, unknown>;
}

/** Sampling and thinking settings of an agent's modelConfig; each absent one is the model's default. */
export interface GenerationConfig {
  temperature?: number;
  topP?: number;
  /** -1: the model decides; 0: no thinking. */
  thinkingBudget?: number;
}

export interface ModelRequest {
  model: string;
  generation?: GenerationConfig;
  systemInstruction: string;
  messages: ModelMessage[];
  tools: ToolDeclaration[];
  signal: AbortSignal;
  /** Ask for the model's thought summaries (they come as `thinking` events). */
  includeThoughts?: boolean;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export type FinishReason = 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'OTHER' | 'MISSING';

export type ModelStreamEvent =
  | { type: 'text'; text: string }
  /** A thought summary: how the model is working it out, never part of the answer. */
  | { type: 'thinking'; text: string }
  /** `callId` is the model's own id when it sent one, else one the adapter made up (stable within the response). */
  | {
      type: 'function_call';
      callId: string;
      name: string;
      /** Always an object: args the model sent as anything else are `{}` here, and `argsSentAs` says what came. */
      args: Record<string, unknown>;
      /** Set when the model's args were not an object ("an array", "a string"): the engine refuses the call. */
      argsSentAs?: string;
      /** The call's thoughtSignature, to be stored with the call part and sent back with it. */
      signature?: string;
    }
  | { type: 'finish'; finishReason: FinishReason; usage: ModelUsage | null };

export interface ModelClient {
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export type ModelErrorKind =
  | 'not_configured'
  | 'key_rejected'
  | 'unavailable'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'bad_response'
  | 'blocked'
  | 'cancelled';

/** Every way a model call can fail, as one typed error with a message a person can read. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
