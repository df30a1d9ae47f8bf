import { describe, expect, it } from 'vitest';
import {
  decisionNoteForPerson,
  expiredRunForPerson,
  expiredRunWords,
  REJECTED_ON_RESUME,
  refusalForGone,
  rejectionForModel,
  turnedDownOnResume,
  turnedDownWords,
} from '../../../shared/rejection-words';

describe('a rejection, for the model and for the person', () => {
  it('tells the model not to retry, and reads back to the person as what they did and why', () => {
    expect(rejectionForModel('They are plastic')).toBe(
      'The user rejected this action: They are plastic. Do not retry it unless they ask.',
    );
    expect(turnedDownWords(rejectionForModel('They are plastic'))).toBe(
      'You turned this down; it was not done. Your reason: They are plastic.',
    );
    expect(turnedDownWords(rejectionForModel('Not now!'))).toBe(
      'You turned this down; it was not done. Your reason: Not now!',
    );
    expect(turnedDownWords(rejectionForModel(null))).toBe('You turned this down; it was not done.');
    expect(turnedDownWords(REJECTED_ON_RESUME)).toBe('You turned this down; it was not done.');
  });

  it('says a call turned down because its MCP server went without what the model is told to do about it', () => {
    // The model was told (and the ledger keeps) the name in straight quotes; the person reads it in curly ones.
    const { message } = refusalForGone('Notes "work"', 'removed');
    expect(message).toMatch(/^The MCP server "Notes "work"" was removed in Settings/);
    expect(turnedDownWords(message)).toBe(
      'The MCP server “Notes "work"” was removed in Settings while this waited for approval, so it was not run.',
    );
    expect(turnedDownWords(refusalForGone('notes', 'turned_off').message)).toBe(
      'The MCP server “notes” was turned off in Settings while this waited for approval, so it was not run.',
    );
  });

  it('shows the note of an approval Deputy turned down for the person in their quotes, and theirs as written', () => {
    const { note } = refusalForGone('notes', 'removed');
    // Stored as it always was: a run picked up after a restart reads it back.
    expect(note).toBe('Turned down by Deputy: the MCP server "notes" was removed in Settings.');
    expect(decisionNoteForPerson(note)).toBe(
      'Turned down by Deputy: the MCP server “notes” was removed in Settings.',
    );
    expect(decisionNoteForPerson(refusalForGone('a "b"', 'turned_off').note)).toBe(
      'Turned down by Deputy: the MCP server “a "b"” was turned off in Settings.',
    );
    expect(decisionNoteForPerson('Not "that" one')).toBe('Not "that" one');
  });

  it('says in a sentence that Deputy turned a call down because its run ended, unless the person wrote those words', () => {
    expect(decisionNoteForPerson('the run ended')).toBe(
      'Deputy turned it down: the run it belonged to ended first.',
    );
    expect(decisionNoteForPerson('the run ended', 'deputy')).toBe(
      'Deputy turned it down: the run it belonged to ended first.',
    );
    expect(decisionNoteForPerson('the run ended', 'person')).toBe('the run ended');
    expect(decisionNoteForPerson(refusalForGone('a', 'removed').note, 'person')).toBe(
      refusalForGone('a', 'removed').note,
    );
  });

  it('reads a rejection stored before a reason got its full stop, and leaves any other words alone', () => {
    expect(turnedDownWords('The user rejected this action: not twice Do not retry it unless they ask.')).toBe(
      'You turned this down; it was not done. Your reason: not twice.',
    );
    for (const other of [
      'Cancelled: you sent a new message while this was waiting for your approval.',
      'You turned this undo down; nothing was undone. Your reason: Not now.',
      'The approval expired; nothing was done.',
    ])
      expect(turnedDownWords(other)).toBeNull();
  });

  it('reads the words of a run ended by an expired approval back with its time as the person reads times', () => {
    // A title that quotes its task (“Buy milk”) is a quote inside a quote: single ones, so the marks pair up.
    const quoting = expiredRunWords('Mark “Buy milk” as done', '2026-11-28T08:06:23.000Z');
    expect(quoting).toMatch(
      /^The approval for "Mark “Buy milk” as done" expired at 2026-11-28T08:06:23\.000Z,/,
    );
    expect(expiredRunForPerson(quoting, () => '9:06')).toBe(
      'The approval for “Mark ‘Buy milk’ as done” expired at 9:06, so Deputy did not do it. Ask again if you still want it.',
    );
    const stored = expiredRunWords('Add a task: "Buy milk"', '2026-11-28T08:06:23.000Z');
    expect(stored).toBe(
      'The approval for "Add a task: "Buy milk"" expired at 2026-11-28T08:06:23.000Z, so Deputy did not do it. Ask again if you still want it.',
    );
    expect(expiredRunForPerson(stored, (iso) => `[${iso} here]`)).toBe(
      'The approval for “Add a task: "Buy milk"” expired at [2026-11-28T08:06:23.000Z here], so Deputy did not do it. Ask again if you still want it.',
    );
    expect(expiredRunForPerson('The approval expired; nothing was done.', (iso) => iso)).toBeNull();
  });

  it('tells a run picked up after a restart what the live run was told of a call turned down meanwhile', () => {
    expect(turnedDownOnResume('Not in that channel')).toEqual({
      code: 'rejected_by_user',
      message: rejectionForModel('Not in that channel'),
    });
    expect(turnedDownOnResume(null)).toEqual({ code: 'rejected_by_user', message: rejectionForModel(null) });
    // Turned down by Deputy as its MCP server went: the code and words the live run went on with.
    for (const how of ['removed', 'turned_off'] as const) {
      const { code, message, note } = refusalForGone('Notes "work"', how);
      expect(turnedDownOnResume(note)).toEqual({ code, message });
      // The same words typed by the person as their reason are theirs.
      expect(turnedDownOnResume(note, true)).toEqual({
        code: 'rejected_by_user',
        message: rejectionForModel(note),
      });
    }
  });
});
