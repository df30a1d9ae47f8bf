import { describe, expect, it } from 'vitest';
import { scopeWords } from '../../../renderer/src/features/audit/scope-words';

const agentLabel = (name: string) => (name === 'inbox_triage' ? 'Inbox triage' : null);

describe('the audit viewer’s scope chips', () => {
  it('name the agent by the name it goes by, and by its id only while no name is known', () => {
    expect(scopeWords('agentId', 'inbox_triage', { scopeTitle: null, agentLabel })).toEqual({
      text: 'Agent: Inbox triage',
      label: 'Stop filtering by the agent “Inbox triage”',
    });
    // Not its id's last eight letters ('…x_triage'), as a run's id is cut.
    expect(scopeWords('agentId', 'deputy', { scopeTitle: null, agentLabel }).text).toBe('Agent: deputy');
  });

  it('name the conversation by its title once known, and a run by its id’s tail', () => {
    const id = '0197a2c4-5e8f-7d21-9c3b-4a6f8e2d1b0c';
    expect(scopeWords('threadId', id, { scopeTitle: 'Plan my week', agentLabel }).text).toBe(
      'Conversation: Plan my week',
    );
    expect(scopeWords('threadId', id, { scopeTitle: null, agentLabel }).text).toBe('Conversation: …8e2d1b0c');
    expect(scopeWords('runId', id, { scopeTitle: 'Plan my week', agentLabel })).toEqual({
      text: 'Run: …8e2d1b0c',
      label: 'Stop filtering by this run',
    });
  });
});
