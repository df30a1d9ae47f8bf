import type { gmail_v1 } from '@googleapis/gmail';
import type { ApprovalPreview } from '../../../shared/contract';
import { replySubject } from './gmail-mime';
import { headerOf } from './gmail-payload';
import type { MailInput } from './gmail-schemas';
import type { ContentOrigin, Recipient } from '../tool';

/** When a message was received: Gmail's internal date as ISO, or the Date header when that is missing. */
export function dateOf(message: gmail_v1.Schema$Message): string {
  const internal = Number(message.internalDate);
  return Number.isFinite(internal) && internal > 0
    ? new Date(internal).toISOString()
    : headerOf(message.payload, 'Date');
}

export function allRecipients(input: MailInput): string[] {
  const all = [...input.to, ...(input.cc ?? []), ...(input.bcc ?? [])].map((item) => item.toLowerCase());
  return [...new Set(all)];
}

/** Everyone a mail reaches, each with the header that reaches them. */
export function mailReach(input: MailInput): { recipients: Recipient[] } {
  const seen = new Set<string>();
  const recipients: Recipient[] = [];
  for (const [role, list] of [
    ['to', input.to],
    ['cc', input.cc ?? []],
    ['bcc', input.bcc ?? []],
  ] as const) {
    for (const address of list.map((item) => item.toLowerCase())) {
      if (seen.has(address)) continue;
      seen.add(address);
      recipients.push({ address, role });
    }
  }
  return { recipients };
}

/** A mail as content from outside the person, labelled by its sender's address and subject. */
export function mailOrigin(from: string, subject: string, ...text: string[]): ContentOrigin {
  const sender = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return {
    label: `a mail from ${sender.trim() || 'an unknown sender'}${subject ? ` (“${subject}”)` : ''}`,
    text: [from, subject, ...text].join('\n'),
  };
}

export function mailPreview(verb: string, input: MailInput): ApprovalPreview {
  const list = (label: string, values: string[] | undefined) =>
    values && values.length > 0 ? [{ label, value: values.join(', ') }] : [];
  const subject = input.replyToMessageId
    ? replySubject(input.subject ?? '(the original subject)')
    : (input.subject ?? '');
  return {
    title: `${verb} to ${input.to.join(', ')}${input.replyToMessageId ? ' (a reply)' : ''}`,
    fields: [
      ...list('To', input.to),
      ...list('Cc', input.cc),
      ...list('Bcc', input.bcc),
      { label: 'Subject', value: subject },
    ],
    body: input.body,
  };
}

/** A mail as the audit trail records it: whom it went to, its subject and its words. */
export function sentMail(input: MailInput): Record<string, unknown> {
  return {
    to: input.to,
    cc: input.cc ?? [],
    bcc: input.bcc ?? [],
    subject: input.subject ?? '',
    body: input.body,
    ...(input.replyToMessageId && { replyToMessageId: input.replyToMessageId }),
  };
}
