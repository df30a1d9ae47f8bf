import { describe, expect, it } from 'vitest';
import {
  recipientWords,
  slackChannelWords,
  slackDmWords,
  slackPlaceWords,
  targetWords,
} from '../../../shared/target-words';

describe('whom or where an action reached, in words', () => {
  it('reads a Slack channel or person kept as an address as what it is in Slack, dropping nothing', () => {
    expect(targetWords('slack:#general')).toBe('#general in Slack');
    expect(targetWords('slack:#team-eng_2')).toBe('#team-eng_2 in Slack');
    // By id: Slack writes ids in capitals; the host keeps them lower-cased for matching.
    expect(targetWords('slack:c0123abcd')).toBe('Slack channel C0123ABCD');
    expect(targetWords('slack:@u07abc123')).toBe('Slack user U07ABC123');
    expect(targetWords('slack:d0carol001')).toBe('Slack DM D0CAROL001');
    // A thread reply reaches the channel and the people in the thread, named where Slack gave a name.
    expect(targetWords('slack:#general — Ana Lima, slack:@u07abc123')).toBe(
      '#general in Slack — Ana Lima, Slack user U07ABC123',
    );
  });

  it('reads a channel as a call names it: by name with one “#”, by id as what it is', () => {
    expect(slackChannelWords('#general')).toBe('#general');
    expect(slackChannelWords(' General ')).toBe('#general');
    expect(slackChannelWords('C0123ABCD')).toBe('Slack channel C0123ABCD');
    expect(slackChannelWords('G0123ABCD')).toBe('Slack channel G0123ABCD');
    expect(slackChannelWords('D0123ABCD')).toBe('Slack DM D0123ABCD');
  });

  it('says where a post goes: a channel’s name in Slack, words that already say Slack as they are', () => {
    expect(slackPlaceWords('#random')).toBe('#random in Slack');
    expect(slackPlaceWords(slackChannelWords('C0123ABCD'))).toBe('Slack channel C0123ABCD');
    expect(slackPlaceWords(slackDmWords('carol.c'))).toBe('Slack DM with carol.c');
  });

  it('names one party an effect reaches by name where known, else by what its address says', () => {
    expect(recipientWords({ address: 'slack:C0RANDOM01', name: '#random in Slack' })).toBe(
      '#random in Slack',
    );
    expect(recipientWords({ address: 'slack:@u0carol03', name: 'carol.c' })).toBe('carol.c');
    expect(recipientWords({ address: 'slack:c0random01' })).toBe('Slack channel C0RANDOM01');
    expect(recipientWords({ address: 'ana@example.com' })).toBe('ana@example.com');
  });

  it('leaves what is already words as it is', () => {
    for (const target of [
      'the task “Renew passport”',
      'ana@example.com, bob@example.com',
      'Standup, 3 Dec 2026, 10:00 — Ana Lima',
      'Notes from slack: nothing',
    ])
      expect(targetWords(target)).toBe(target);
  });
});
