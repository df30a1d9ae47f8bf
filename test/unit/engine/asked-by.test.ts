import { describe, expect, it } from 'vitest';
import { askedBy } from '../../../electron/engine/call-approval';

describe('an agent’s approval request', () => {
  const STEP = '“awaiting user” step asks you before it acts.';

  it('names who asks from the top, and the asking agent once: its reason says "Its", not its name again', () => {
    expect(askedBy(['Room booker'], 'Add a task: Book the room', `Room booker’s ${STEP}`)).toBe(
      `Room booker wants to add a task: Book the room. Its ${STEP}`,
    );
    expect(askedBy(['coordinator', 'Room booker'], 'Mark “Milk” as done', `Room booker’s ${STEP}`)).toBe(
      `coordinator → Room booker wants to mark “Milk” as done. Its ${STEP}`,
    );
  });

  it('keeps a reason that does not open with the asking agent’s name as it is', () => {
    const supervised = 'Supervised: every action waits for your approval.';
    expect(askedBy(['coordinator', 'messenger'], 'Send an email to Sam', supervised)).toBe(
      `coordinator → messenger wants to send an email to Sam. ${supervised}`,
    );
    // The parent's name is not the asking agent's: "Its" would say the wrong one.
    expect(askedBy(['coordinator', 'messenger'], 'Post in #general', `coordinator’s ${STEP}`)).toBe(
      `coordinator → messenger wants to post in #general. coordinator’s ${STEP}`,
    );
  });
});
