/**
 * Gemini attaches an opaque `thoughtSignature` to the function calls of thinking models and expects
 * it back with those calls in the next request (Gemini 3 rejects the request without it). The
 * engine's messages have no field for it, so the client remembers the latest ones by call id.
 */
export class ThoughtSignatures {
  private readonly byCallId = new Map<string, string>();

  constructor(private readonly capacity = 512) {}

  remember(callId: string, signature: string): void {
    this.byCallId.delete(callId);
    this.byCallId.set(callId, signature);
    // A Map iterates in insertion order, so the first key is the oldest.
    for (const oldest of this.byCallId.keys()) {
      if (this.byCallId.size <= this.capacity) break;
      this.byCallId.delete(oldest);
    }
  }

  recall(callId: string): string | undefined {
    return this.byCallId.get(callId);
  }
}
