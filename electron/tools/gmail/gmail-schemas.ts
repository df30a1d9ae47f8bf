import { z } from 'zod';

/** The shapes of Gmail's four tools: what the model may ask for, and what each tool answers. */

const SEARCH_LIMIT = 25;
export const BODY_LIMIT = 20_000;
/** A long thread is cut to its latest messages so one read cannot flood the model's context. */
export const THREAD_MESSAGE_LIMIT = 25;

const gmailId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,100}$/, { message: 'use an id exactly as gmail_search returned it' });
const address = z.email().max(254);
const addresses = z.array(address).max(50);
// A CR or LF in a header value would let the model (or text it was fed) write its own headers: refused here.
const headerLine = z
  .string()
  .max(500)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .regex(/^[^\x00-\x1f\x7f]*$/, { message: 'must be one line without control characters' });

export const SearchInput = z
  .object({
    q: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('A Gmail search, e.g. "from:ana@example.com newer_than:7d".'),
    maxResults: z.number().int().min(1).max(SEARCH_LIMIT).optional().describe('How many (1-25, default 10).'),
  })
  .strict();
export const ThreadReadInput = z
  .object({ threadId: gmailId.describe('The thread id, as gmail_search returns it.') })
  .strict();
export const MailInput = z
  .object({
    to: addresses.min(1).describe('Recipient email addresses.'),
    cc: addresses.optional(),
    bcc: addresses.optional(),
    subject: headerLine
      .optional()
      .describe('The subject; for a reply it defaults to "Re: " and the original one.'),
    body: z.string().max(100_000).describe('The message, as plain text.'),
    replyToMessageId: gmailId
      .optional()
      .describe('The Gmail id of the message this answers, to reply in its thread.'),
  })
  .strict()
  .refine((input) => input.subject !== undefined || input.replyToMessageId !== undefined, {
    message: 'give a subject (only a reply may leave it out)',
    path: ['subject'],
  });
export type MailInput = z.infer<typeof MailInput>;

export const SearchOutput = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      threadId: z.string(),
      from: z.string(),
      to: z.string(),
      subject: z.string(),
      date: z.string(),
      snippet: z.string(),
    }),
  ),
  hasMore: z.boolean(),
});
export const ThreadOutput = z.object({
  threadId: z.string(),
  messages: z.array(
    z.object({
      id: z.string(),
      from: z.string(),
      to: z.string(),
      cc: z.string(),
      subject: z.string(),
      date: z.string(),
      messageId: z.string(),
      body: z.string(),
      isBodyTruncated: z.boolean(),
      attachments: z.array(z.object({ filename: z.string(), mimeType: z.string(), size: z.number() })),
    }),
  ),
  /** Older messages left out because the thread is longer than the limit. */
  omittedMessages: z.number(),
});
export const DraftOutput = z.object({
  draftId: z.string(),
  messageId: z.string(),
  threadId: z.string(),
  rfc822MessageId: z.string(),
  /** The same call had already saved this draft (a retry or a resumed run), so nothing new was saved. */
  wasAlreadySaved: z.boolean(),
});
export const SendOutput = z.object({
  messageId: z.string(),
  threadId: z.string(),
  rfc822MessageId: z.string(),
  /** The same call had already sent this mail (a retry or a resumed run), so it was not sent again. */
  wasAlreadySent: z.boolean(),
});
export type DraftOutput = z.infer<typeof DraftOutput>;
export type SendOutput = z.infer<typeof SendOutput>;
