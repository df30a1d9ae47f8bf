import type { FakeHandler } from '../http-kit';

/** Placeholder: the Gmail work replaces this with a stateful subset of Gmail v1. */
export type GmailFakeState = Record<string, never>;

export function createGmailFake(): { handler: FakeHandler; state: GmailFakeState } {
  return { handler: () => null, state: {} };
}
