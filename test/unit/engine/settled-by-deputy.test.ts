import { describe, expect, it } from 'vitest';
import { ENDED_BY_DEPUTY, endingFor } from '../../../electron/engine/settled-by-deputy';
import type { StoredApproval } from '../../../electron/store/approvals-repo';
import { storedApproval } from '../../support/stored-approval';

const approval = (
  status: StoredApproval['status'],
  decisionNote: string | null,
  decidedBy?: StoredApproval['decidedBy'],
): StoredApproval =>
  storedApproval({
    status,
    decidedAt: '2026-11-28T09:31:00.000Z',
    decisionNote,
    ...(decidedBy && { decidedBy }),
  });

describe('endingFor', () => {
  it('ends the run as the live run ended when Deputy settled what it waited for', () => {
    expect(endingFor(approval('expired', null))).toEqual({
      code: 'approval_expired',
      message:
        'The approval for "Post a note" expired at 2026-11-28T09:30:00.000Z, so Deputy did not do it. Ask again if you still want it.',
    });
    expect(endingFor(approval('rejected', ENDED_BY_DEPUTY.superseded.note))).toEqual({
      code: 'cancelled',
      message: ENDED_BY_DEPUTY.superseded.message,
    });
    for (const note of [
      ENDED_BY_DEPUTY.planCancelled,
      ENDED_BY_DEPUTY.outOfTime,
      ENDED_BY_DEPUTY.stoppedWithParent,
    ])
      expect(endingFor(approval('rejected', note))).toEqual({ code: 'cancelled', message: note });
  });

  it('lets the run go on after what the person decided, or while it still waits', () => {
    expect(endingFor(approval('rejected', 'Not in that channel'))).toBeNull();
    expect(endingFor(approval('rejected', null))).toBeNull();
    // A person's reason that only starts like Deputy's note is still theirs.
    expect(endingFor(approval('rejected', `${ENDED_BY_DEPUTY.planCancelled} And why?`))).toBeNull();
    expect(endingFor(approval('approved', null))).toBeNull();
    expect(endingFor(approval('pending', null))).toBeNull();
  });

  it("tells Deputy's notes from the same words typed by the person by who settled the approval", () => {
    const { superseded, planCancelled, outOfTime, stoppedWithParent } = ENDED_BY_DEPUTY;
    for (const note of [superseded.note, planCancelled, outOfTime, stoppedWithParent]) {
      expect(endingFor(approval('rejected', note, 'person'))).toBeNull();
      expect(endingFor(approval('rejected', note, 'deputy'))).toEqual(endingFor(approval('rejected', note)));
    }
    expect(endingFor(approval('rejected', 'Not in that channel', 'deputy'))).toBeNull();
    expect(endingFor(approval('expired', null, 'deputy'))).toMatchObject({ code: 'approval_expired' });
  });
});
