import { describe, expect, it } from 'vitest';
import {
  buildMessage,
  decodeHeaderWords,
  deputyMessageId,
  encodeHeaderText,
  formatDate,
  messageIdsIn,
  replySubject,
  toRaw,
} from '../../../electron/tools/gmail/gmail-mime';

const mail = {
  to: ['ana@example.com', 'ben@example.com'],
  cc: ['cy@example.com'],
  bcc: ['dee@example.com'],
  subject: 'Quarterly numbers',
  body: 'Hi Ana,\nthe numbers are in.\n\n— Deputy',
  date: new Date('2026-11-22T09:05:03Z'),
  messageId: deputyMessageId('0123456789abcdef0123456789abcdef'),
};

function split(message: string): { head: string; body: string } {
  const at = message.indexOf('\r\n\r\n');
  return { head: message.slice(0, at), body: message.slice(at + 4) };
}

describe('encodeHeaderText', () => {
  it('leaves printable ASCII as it is', () => {
    expect(encodeHeaderText('Lunch on Friday?')).toBe('Lunch on Friday?');
  });

  it('encodes non-ASCII text as UTF-8 encoded-words of at most 75 characters that decode back exactly', () => {
    const subject = 'Grüße aus Köln — 会議の議事録 🎉 und eine ziemlich lange Betreffzeile über das Angebot';
    const encoded = encodeHeaderText(subject);
    const words = encoded.split('\r\n ');
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
      // Each word holds whole characters: it decodes on its own without a replacement character.
      expect(decodeHeaderWords(word)).not.toContain('\uFFFD');
    }
    expect(decodeHeaderWords(encoded)).toBe(subject);
  });

  it('encodes ASCII text that would otherwise read as an encoded-word', () => {
    const tricky = 'see =?UTF-8?B?SGk=?= here';
    expect(encodeHeaderText(tricky)).toMatch(/^=\?UTF-8\?B\?/);
    expect(decodeHeaderWords(encodeHeaderText(tricky))).toBe(tricky);
  });
});

describe('buildMessage', () => {
  it('writes CRLF lines, the standard headers, and a base64 UTF-8 body that decodes to the text', () => {
    const message = buildMessage(mail);
    expect(message.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const { head, body } = split(message);
    expect(head.split('\r\n')).toEqual([
      'MIME-Version: 1.0',
      'Date: Sun, 22 Nov 2026 09:05:03 +0000',
      'Message-ID: <deputy.0123456789abcdef0123456789abcdef@deputy.local>',
      'To: ana@example.com,',
      ' ben@example.com',
      'Cc: cy@example.com',
      'Bcc: dee@example.com',
      'Subject: Quarterly numbers',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: base64',
    ]);
    for (const line of body.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    expect(Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8')).toBe(
      'Hi Ana,\r\nthe numbers are in.\r\n\r\n— Deputy',
    );
  });

  it('leaves out empty Cc and Bcc and adds In-Reply-To and folded References for a reply', () => {
    const { head } = split(
      buildMessage({
        ...mail,
        cc: [],
        bcc: [],
        inReplyTo: '<b@mail.example.com>',
        references: ['<a@mail.example.com>', '<b@mail.example.com>'],
      }),
    );
    expect(head).not.toMatch(/^(Cc|Bcc):/m);
    expect(head).toContain('In-Reply-To: <b@mail.example.com>\r\n');
    expect(head).toContain('References: <a@mail.example.com>\r\n <b@mail.example.com>\r\n');
  });

  it('carries a long body of any size in lines of 76', () => {
    const body = 'ä'.repeat(10_000);
    const encoded = split(buildMessage({ ...mail, body })).body;
    expect(encoded.split('\r\n').every((line) => line.length <= 76)).toBe(true);
    expect(Buffer.from(encoded, 'base64').toString('utf8')).toBe(body);
  });

  it('gives Gmail the message as base64url', () => {
    const raw = toRaw(buildMessage(mail));
    expect(raw).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(raw, 'base64url').toString('utf8')).toBe(buildMessage(mail));
  });
});

describe('headers copied from another mail', () => {
  it('keeps only <id> tokens, so a crafted header cannot add lines', () => {
    expect(messageIdsIn('<a@x.example>\r\nBcc: evil@example.com <b@x.example>')).toEqual([
      '<a@x.example>',
      '<b@x.example>',
    ]);
    expect(messageIdsIn('<has space@x> <ok@x>')).toEqual(['<ok@x>']);
    expect(messageIdsIn(undefined)).toEqual([]);
  });

  it('puts one "Re: " in front of a reply subject and strips control characters', () => {
    expect(replySubject('Budget')).toBe('Re: Budget');
    expect(replySubject('RE: Budget')).toBe('RE: Budget');
    expect(replySubject('Budget\r\nBcc: evil@example.com')).toBe('Re: Budget Bcc: evil@example.com');
  });
});

describe('decodeHeaderWords', () => {
  it('decodes B and Q words in any charset and keeps the text around them', () => {
    expect(decodeHeaderWords('Re: =?iso-8859-1?Q?Gr=FC=DFe_aus_K=F6ln?= !')).toBe('Re: Grüße aus Köln !');
    expect(decodeHeaderWords('=?UTF-8?B?5Lya6K2w?= <ana@example.com>')).toBe('会議 <ana@example.com>');
  });

  it('drops the space between adjacent words and joins a character split across them', () => {
    const bytes = Buffer.from('Köln', 'utf8');
    const first = bytes.subarray(0, 2).toString('base64');
    const second = bytes.subarray(2).toString('base64');
    expect(decodeHeaderWords(`=?UTF-8?B?${first}?= \r\n =?UTF-8?B?${second}?=`)).toBe('Köln');
    expect(decodeHeaderWords('=?UTF-8?Q?a?= b =?UTF-8?Q?c?=')).toBe('a b c');
  });

  it('leaves a word in an unknown charset as it was', () => {
    expect(decodeHeaderWords('=?x-unknown?Q?abc?=')).toBe('=?x-unknown?Q?abc?=');
  });
});

describe('formatDate and deputyMessageId', () => {
  it('writes RFC 5322 dates in UTC', () => {
    expect(formatDate(new Date('2026-01-05T23:59:09Z'))).toBe('Mon, 05 Jan 2026 23:59:09 +0000');
  });

  it('carries the idempotency key in the Message-ID', () => {
    expect(deputyMessageId('abc123')).toBe('<deputy.abc123@deputy.local>');
  });
});
