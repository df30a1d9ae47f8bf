import { gmail, type gmail_v1 } from '@googleapis/gmail';
import type { z } from 'zod';
import type { GoogleAccess } from '../../connections/access';
import { allRecipients, dateOf, mailOrigin, mailPreview, mailReach, sentMail } from './gmail-compose';
import { buildMessage, deputyMessageId, messageIdsIn, replySubject, toRaw } from './gmail-mime';
import { attachmentsOf, bodyText, headerOf } from './gmail-payload';
import { decodeEntities } from './html-scan';
import { callGoogle, deleteOnGoogle } from '../google-call';
import {
  BODY_LIMIT,
  DraftOutput,
  MailInput,
  SearchInput,
  SearchOutput,
  SendOutput,
  THREAD_MESSAGE_LIMIT,
  ThreadOutput,
  ThreadReadInput,
} from './gmail-schemas';
import type { Tool, ToolContext } from '../tool';

/** Gmail's four tools: search and read for context, draft and send under the approval policy. */
export function createGmailTools(access: GoogleAccess, options: { now?: () => Date } = {}): Tool[] {
  const clock = (context: ToolContext): Date => options.now?.() ?? context.now();

  const withGmail = <T>(
    what: string,
    context: ToolContext,
    call: (api: gmail_v1.Gmail, request: { signal: AbortSignal }) => Promise<T>,
  ): Promise<T> =>
    callGoogle(
      access,
      (clientOptions) => gmail({ version: 'v1', ...clientOptions }),
      what,
      () => clock(context),
      (api) => call(api, { signal: context.signal }),
    );

  /** The raw message and, for a reply, the thread it belongs in. */
  const compose = async (input: MailInput, context: ToolContext) => {
    const messageId = deputyMessageId(context.idempotencyKey);
    const mail = {
      to: input.to,
      cc: input.cc ?? [],
      bcc: input.bcc ?? [],
      subject: input.subject ?? '',
      body: input.body,
      date: clock(context),
      messageId,
    };
    if (!input.replyToMessageId) return { raw: toRaw(buildMessage(mail)), threadId: undefined, messageId };
    const replyTo = input.replyToMessageId;
    const original = await withGmail(
      'reading the message being replied to',
      context,
      async (api, request) => {
        const response = await api.users.messages.get(
          {
            userId: 'me',
            id: replyTo,
            format: 'metadata',
            metadataHeaders: ['Message-ID', 'References', 'Subject'],
          },
          request,
        );
        return response.data;
      },
    );
    const originalId = messageIdsIn(headerOf(original.payload, 'Message-ID'))[0];
    const references = [
      ...messageIdsIn(headerOf(original.payload, 'References')),
      ...(originalId ? [originalId] : []),
    ];
    const raw = buildMessage({
      ...mail,
      subject: replySubject(input.subject ?? headerOf(original.payload, 'Subject')),
      inReplyTo: originalId,
      references,
    });
    return { raw: toRaw(raw), threadId: original.threadId ?? undefined, messageId };
  };

  // Our Message-ID is derived from the idempotency key, so mail carrying it was made by this very call: a retry
  // or a resumed run finds it instead of sending or saving it again.

  /** The mail this call already sent, as `gmail_send` reports it, or null. Only reads. */
  const findSent = (context: ToolContext): Promise<SendOutput | null> => {
    const rfc822MessageId = deputyMessageId(context.idempotencyKey);
    return withGmail('looking for the email this call already sent', context, async (api, request) => {
      const existing = await api.users.messages.list(
        { userId: 'me', q: `in:sent rfc822msgid:${rfc822MessageId}`, maxResults: 1 },
        request,
      );
      const found = existing.data.messages?.[0];
      return found
        ? {
            messageId: found.id ?? '',
            threadId: found.threadId ?? '',
            rfc822MessageId,
            wasAlreadySent: true,
          }
        : null;
    });
  };

  /** The draft this call already saved, as `gmail_draft_create` reports it, or null. Only reads. */
  const findDraft = (context: ToolContext): Promise<DraftOutput | null> => {
    const rfc822MessageId = deputyMessageId(context.idempotencyKey);
    return withGmail('looking for the draft this call already saved', context, async (api, request) => {
      const existing = await api.users.drafts.list(
        { userId: 'me', q: `rfc822msgid:${rfc822MessageId}`, maxResults: 1 },
        request,
      );
      const found = existing.data.drafts?.[0];
      return found
        ? {
            draftId: found.id ?? '',
            messageId: found.message?.id ?? '',
            threadId: found.message?.threadId ?? '',
            rfc822MessageId,
            wasAlreadySaved: true,
          }
        : null;
    });
  };

  const search: Tool<z.infer<typeof SearchInput>, z.infer<typeof SearchOutput>> = {
    name: 'gmail_search',
    description:
      "Search the user's Gmail with Gmail search syntax; returns senders, subjects, dates and snippets. Use gmail_thread_read for a whole conversation.",
    input: SearchInput,
    output: SearchOutput,
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    requires: 'google',
    provenance: (output) =>
      output.messages.map((message) =>
        mailOrigin(message.from, message.subject, message.to, message.snippet),
      ),
    execute: (input, context) =>
      withGmail('searching Gmail', context, async (api, request) => {
        const list = await api.users.messages.list(
          { userId: 'me', q: input.q, maxResults: input.maxResults ?? 10 },
          request,
        );
        const found = await Promise.all(
          (list.data.messages ?? []).map(async (item) => {
            const response = await api.users.messages.get(
              {
                userId: 'me',
                id: item.id ?? '',
                format: 'metadata',
                metadataHeaders: ['From', 'To', 'Subject', 'Date'],
              },
              request,
            );
            return response.data;
          }),
        );
        return {
          messages: found.map((message) => ({
            id: message.id ?? '',
            threadId: message.threadId ?? '',
            from: headerOf(message.payload, 'From'),
            to: headerOf(message.payload, 'To'),
            subject: headerOf(message.payload, 'Subject'),
            date: dateOf(message),
            // Gmail escapes the snippet as HTML.
            snippet: decodeEntities(message.snippet ?? ''),
          })),
          hasMore: Boolean(list.data.nextPageToken),
        };
      }),
  };

  const threadRead: Tool<z.infer<typeof ThreadReadInput>, z.infer<typeof ThreadOutput>> = {
    name: 'gmail_thread_read',
    description:
      'Read a Gmail conversation: every message with sender, recipients, subject, date, body text and the names of attachments (not their content).',
    input: ThreadReadInput,
    output: ThreadOutput,
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    requires: 'google',
    provenance: (output) =>
      output.messages.map((message) =>
        mailOrigin(message.from, message.subject, message.to, message.cc, message.body),
      ),
    execute: (input, context) =>
      withGmail('reading the Gmail thread', context, async (api, request) => {
        const thread = await api.users.threads.get(
          { userId: 'me', id: input.threadId, format: 'full' },
          request,
        );
        const all = thread.data.messages ?? [];
        const kept = all.slice(-THREAD_MESSAGE_LIMIT);
        return {
          threadId: thread.data.id ?? input.threadId,
          messages: kept.map((message) => {
            const body = bodyText(message.payload ?? undefined);
            const isBodyTruncated = body.length > BODY_LIMIT;
            return {
              id: message.id ?? '',
              from: headerOf(message.payload, 'From'),
              to: headerOf(message.payload, 'To'),
              cc: headerOf(message.payload, 'Cc'),
              subject: headerOf(message.payload, 'Subject'),
              date: dateOf(message),
              messageId: headerOf(message.payload, 'Message-ID'),
              body: isBodyTruncated
                ? `${body.slice(0, BODY_LIMIT)}\n[… cut: the message is ${body.length} characters long]`
                : body,
              isBodyTruncated,
              attachments: attachmentsOf(message.payload ?? undefined),
            };
          }),
          omittedMessages: all.length - kept.length,
        };
      }),
  };

  const mailTool = {
    input: MailInput,
    hasSideEffects: true,
    requires: 'google',
    isExternal: true,
    recipients: allRecipients,
    // Gmail delivers a reply only to the addresses in its headers, so those are everyone a mail reaches.
    reach: mailReach,
  } as const;

  const draftCreate: Tool<MailInput, DraftOutput> = {
    ...mailTool,
    name: 'gmail_draft_create',
    description:
      "Save an email as a draft in the user's Gmail, without sending it. Give replyToMessageId to draft a reply in that message's thread.",
    output: DraftOutput,
    category: 'draft',
    risk: 'medium',
    actionKind: 'email.draft',
    preview: (input) => mailPreview('Draft an email', input),
    execute: async (input, context) => {
      const saved = await findDraft(context);
      if (saved) return saved;
      const { raw, threadId, messageId } = await compose(input, context);
      return withGmail('saving the Gmail draft', context, async (api, request) => {
        const draft = await api.users.drafts.create(
          { userId: 'me', requestBody: { message: { raw, threadId } } },
          request,
        );
        return {
          draftId: draft.data.id ?? '',
          messageId: draft.data.message?.id ?? '',
          threadId: draft.data.message?.threadId ?? threadId ?? '',
          rfc822MessageId: messageId,
          wasAlreadySaved: false,
        };
      });
    },
    reconcile: (_input, context) => findDraft(context),
    effect: (input, output) => ({
      entityType: 'gmail_draft',
      entityId: output.draftId,
      before: null,
      after: { ...sentMail(input), rfc822MessageId: output.rfc822MessageId },
    }),
    // The draft is deleted for good (Gmail's drafts.delete skips the trash): it was never sent.
    undo: ({ output }, context) => {
      const { draftId } = DraftOutput.parse(output);
      return callGoogle(
        access,
        (clientOptions) => gmail({ version: 'v1', ...clientOptions }),
        'deleting the Gmail draft',
        context.now,
        async (api) => {
          const gone = await deleteOnGoogle(() =>
            api.users.drafts.delete({ userId: 'me', id: draftId }, { signal: context.signal }),
          );
          return { deleted: draftId, ...gone };
        },
      );
    },
  };

  const send: Tool<MailInput, SendOutput> = {
    ...mailTool,
    name: 'gmail_send',
    description:
      "Send an email from the user's Gmail. Give replyToMessageId to answer a message in its thread.",
    output: SendOutput,
    category: 'external',
    risk: 'high',
    actionKind: 'email.send',
    preview: (input) => mailPreview('Send an email', input),
    alwaysAllowScopes: (input) => {
      const [only, ...others] = allRecipients(input);
      return only && others.length === 0
        ? [{ field: 'recipients', pattern: only, label: `Always allow sending to ${only}` }]
        : [];
    },
    execute: async (input, context) => {
      const alreadySent = await findSent(context);
      if (alreadySent) return alreadySent;
      const { raw, threadId, messageId } = await compose(input, context);
      return withGmail('sending the email', context, async (api, request) => {
        const sent = await api.users.messages.send({ userId: 'me', requestBody: { raw, threadId } }, request);
        return {
          messageId: sent.data.id ?? '',
          threadId: sent.data.threadId ?? threadId ?? '',
          rfc822MessageId: messageId,
          wasAlreadySent: false,
        };
      });
    },
    reconcile: (_input, context) => findSent(context),
    // What was sent, and the provider's id for it.
    effect: (input, output) => ({
      entityType: 'gmail_message',
      entityId: output.messageId,
      before: null,
      after: { ...sentMail(input), rfc822MessageId: output.rfc822MessageId, threadId: output.threadId },
    }),
    irreversibleBecause: 'A sent email cannot be unsent.',
  };

  return [search, threadRead, draftCreate, send];
}
