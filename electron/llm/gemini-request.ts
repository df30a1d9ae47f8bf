import type { Content, Part, Tool } from '@google/genai';
import { callArgs } from './call-args';
import { isInventedCallId } from './gemini-call-ids';
import type { ModelMessage, ModelPart, ToolDeclaration } from './model-client';

/** Turns the engine's conversation and tools into the shapes of a Gemini request. */

export function toGeminiContents(messages: ModelMessage[]): Content[] {
  const contents: Content[] = [];
  for (const message of messages) {
    const parts = message.parts.flatMap(toGeminiPart);
    // Gemini rejects a content with no parts.
    if (parts.length > 0) contents.push({ role: message.role, parts });
  }
  return contents;
}

export function toGeminiTools(tools: ToolDeclaration[]): Tool[] | undefined {
  if (tools.length === 0) return undefined;
  const functionDeclarations = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: tool.parameters,
  }));
  return [{ functionDeclarations }];
}

function toGeminiPart(part: ModelPart): Part[] {
  switch (part.kind) {
    case 'text':
      return part.text === '' ? [] : [{ text: part.text }];
    case 'call': {
      // Read as the response reader reads them: a call in the history never goes back with non-object args.
      const functionCall = { ...modelGivenId(part.callId), name: part.name, args: callArgs(part.args).args };
      // Gemini 3 wants each call's thoughtSignature back exactly as it came.
      return [part.signature ? { functionCall, thoughtSignature: part.signature } : { functionCall }];
    }
    case 'result':
      return [{ functionResponse: { ...modelGivenId(part.callId), name: part.name, response: part.result } }];
  }
}

/** Only an id the model gave is sent back; Gemini matches calls without one by name and order. */
function modelGivenId(callId: string): { id?: string } {
  return isInventedCallId(callId) ? {} : { id: callId };
}
