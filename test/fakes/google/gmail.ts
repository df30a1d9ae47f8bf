import { googleError, type FakeHandler, type FakeRequest, type FakeResponse } from '../http-kit';

/**
 * A stateful subset of Gmail v1 in Google's REST shapes: profile, message search and get, thread get, send,
 * draft create and draft list. What it receives is parsed as MIME here, independently of Deputy's own builder, so a test
 * that reads back a sent subject or body checks the encoding for real.
 */

interface Header {
  name: string;
  value: string;
}

/** A MIME part as the API returns it in `payload`. */
export interface FakePart {
  partId: string;
  mimeType: string;
  filename: string;
  headers: Header[];
  body: { size: number; data?: string; attachmentId?: string };
  parts?: FakePart[];
}

export interface FakeMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  snippet: string;
  internalDate: string;
  payload: FakePart;
  /** The RFC 822 text, for messages that arrived through send or drafts. */
  raw?: string;
  /** The decoded text body, for search. */
  text: string;
}

/** Inbox content for a test: a message built from parts rather than written as MIME. */
export interface SeedMessage {
  from: string;
  to: string;
  cc?: string;
  subject: string;
  /** ISO date; the Date header and internalDate. */
  date?: string;
  messageId?: string;
  references?: string;
  text?: string;
  /** The charset the text part is stored in (Latin-1 mail still exists). */
  textCharset?: 'utf-8' | 'iso-8859-1';
  html?: string;
  attachments?: { filename: string; mimeType: string; content: string }[];
  labelIds?: string[];
  /** Headers written as is (an encoded-word subject, say), replacing any of the same name. */
  headers?: Record<string, string>;
}

/** A message that went out through messages.send, with the headers the tests count on. */
export interface SentMessage {
  id: string;
  threadId: string;
  raw: string;
  /** Every header, names lowercased, RFC 2047 decoded. */
  headers: Record<string, string>;
  messageId: string;
  inReplyTo: string;
  references: string;
  subject: string;
  to: string;
  cc: string;
  bcc: string;
  /** The decoded body with line ends as `\n`. */
  body: string;
}

export interface GmailFakeState {
  emailAddress: string;
  messages: FakeMessage[];
  sent: SentMessage[];
  drafts: { id: string; message: FakeMessage }[];
  addMessage(seed: SeedMessage & { threadId?: string }): FakeMessage;
  addThread(seeds: readonly SeedMessage[]): { threadId: string; messages: FakeMessage[] };
}

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

export function createGmailFake(): { handler: FakeHandler; state: GmailFakeState } {
  let counter = 0;
  const nextId = (): string => {
    counter += 1;
    return `18f${counter.toString(16).padStart(13, '0')}`;
  };

  const state: GmailFakeState = {
    emailAddress: 'me@example.com',
    messages: [],
    sent: [],
    drafts: [],
    addMessage: (seed) => {
      const message = seededMessage(seed, nextId(), seed.threadId);
      state.messages.push(message);
      return message;
    },
    addThread: (seeds) => {
      const threadId = nextId();
      const messages = seeds.map((seed) => state.addMessage({ ...seed, threadId }));
      return { threadId, messages };
    },
  };

  function seededMessage(seed: SeedMessage & { threadId?: string }, id: string, threadId = id): FakeMessage {
    const date = seed.date ?? new Date(Date.UTC(2026, 10, 20, 9, counter)).toISOString();
    const headers: Record<string, string> = {
      From: seed.from,
      To: seed.to,
      ...(seed.cc ? { Cc: seed.cc } : {}),
      Subject: seed.subject,
      Date: new Date(date).toUTCString(),
      'Message-ID': seed.messageId ?? `<${id}@mail.example.com>`,
      ...(seed.references ? { References: seed.references } : {}),
      'MIME-Version': '1.0',
      ...seed.headers,
    };
    const bodies: FakePart[] = [];
    if (seed.text !== undefined) {
      const charset = seed.textCharset ?? 'utf-8';
      const bytes = Buffer.from(seed.text, charset === 'utf-8' ? 'utf8' : 'latin1');
      bodies.push(leaf('text/plain', `text/plain; charset=${charset}`, bytes));
    }
    if (seed.html !== undefined)
      bodies.push(leaf('text/html', 'text/html; charset=utf-8', Buffer.from(seed.html)));
    let content: FakePart =
      bodies.length === 1 && bodies[0] ? bodies[0] : multipart('multipart/alternative', bodies);
    if (seed.attachments && seed.attachments.length > 0) {
      const attached = seed.attachments.map((attachment) => ({
        ...leaf(
          attachment.mimeType,
          `${attachment.mimeType}; name="${attachment.filename}"`,
          Buffer.from(''),
        ),
        filename: attachment.filename,
        body: { size: Buffer.byteLength(attachment.content), attachmentId: `att-${nextId()}` },
      }));
      content = multipart('multipart/mixed', [content, ...attached]);
    }
    const payload: FakePart = {
      ...content,
      headers: [...Object.entries(headers).map(([name, value]) => ({ name, value })), ...content.headers],
    };
    numberParts(payload, '');
    const text = seed.text ?? (seed.html ?? '').replace(/<[^>]*>/g, ' ');
    return {
      id,
      threadId,
      labelIds: seed.labelIds ?? ['INBOX', 'UNREAD'],
      snippet: snippetOf(text),
      internalDate: String(Date.parse(date)),
      payload,
      text,
    };
  }

  /** Stores a raw message that arrived through send or drafts. */
  function storeRaw(
    raw: string,
    threadId: string,
    label: string,
  ): { message: FakeMessage; sent: SentMessage } {
    const parsed = parseMime(raw);
    const id = nextId();
    const header = (name: string): string => parsed.headers[name.toLowerCase()] ?? '';
    const headers = [...parsed.list];
    if (!parsed.headers.from) headers.unshift({ name: 'From', value: state.emailAddress });
    const message: FakeMessage = {
      id,
      threadId: threadId || id,
      labelIds: [label],
      snippet: snippetOf(parsed.body),
      internalDate: String(Date.parse(header('date')) || Date.now()),
      payload: {
        partId: '',
        mimeType: 'text/plain',
        filename: '',
        headers,
        body: { size: Buffer.byteLength(parsed.body), data: base64url(Buffer.from(parsed.body)) },
      },
      raw,
      text: parsed.body,
    };
    const sent: SentMessage = {
      id,
      threadId: message.threadId,
      raw,
      headers: parsed.headers,
      messageId: header('message-id'),
      inReplyTo: header('in-reply-to'),
      references: header('references'),
      subject: header('subject'),
      to: header('to'),
      cc: header('cc'),
      bcc: header('bcc'),
      body: parsed.body,
    };
    return { message, sent };
  }

  /**
   * Reads `{raw, threadId}` and checks what Gmail checks. The client sends `requestBody: {raw}` as JSON to the
   * plain URL; the /upload/ media form is only used for a `media` argument, which Deputy never passes.
   */
  function incoming(json: unknown): { raw: string; threadId: string } | FakeResponse {
    const body = (typeof json === 'object' && json !== null ? json : {}) as {
      raw?: unknown;
      threadId?: unknown;
    };
    const raw = Buffer.from(String(body.raw ?? ''), 'base64url').toString('utf8');
    if (!raw.trim())
      return googleError(
        400,
        "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
        'invalidArgument',
      );
    const threadId = typeof body.threadId === 'string' ? body.threadId : '';
    if (threadId && !state.messages.some((message) => message.threadId === threadId)) {
      return googleError(404, 'Requested entity was not found.', 'notFound');
    }
    const headers = parseMime(raw).headers;
    if (!headers.to && !headers.cc && !headers.bcc)
      return googleError(400, 'Invalid To header', 'invalidArgument');
    return { raw, threadId };
  }

  const routes: {
    method: string;
    path: RegExp;
    answer: (request: FakeRequest, id: string) => FakeResponse;
  }[] = [
    {
      method: 'GET',
      path: /^\/gmail\/v1\/users\/me\/profile$/,
      answer: () => ({
        status: 200,
        json: {
          emailAddress: state.emailAddress,
          messagesTotal: state.messages.length,
          threadsTotal: new Set(state.messages.map((message) => message.threadId)).size,
          historyId: String(1000 + counter),
        },
      }),
    },
    {
      method: 'GET',
      path: /^\/gmail\/v1\/users\/me\/messages$/,
      answer: (request) => {
        const matches = search(state.messages, request.query.get('q') ?? '');
        const max = Math.min(Number(request.query.get('maxResults') ?? 100) || 100, 500);
        const offset = Number(request.query.get('pageToken') ?? 0) || 0;
        const page = matches.slice(offset, offset + max);
        return {
          status: 200,
          json: {
            ...(page.length > 0 ? { messages: page.map(({ id, threadId }) => ({ id, threadId })) } : {}),
            ...(offset + max < matches.length ? { nextPageToken: String(offset + max) } : {}),
            resultSizeEstimate: matches.length,
          },
        };
      },
    },
    {
      method: 'GET',
      path: /^\/gmail\/v1\/users\/me\/messages\/([^/]+)$/,
      answer: (request, id) => {
        const message = state.messages.find((candidate) => candidate.id === id);
        if (!message) return googleError(404, 'Requested entity was not found.', 'notFound');
        return { status: 200, json: view(message, request.query) };
      },
    },
    {
      method: 'GET',
      path: /^\/gmail\/v1\/users\/me\/threads\/([^/]+)$/,
      answer: (request, id) => {
        const messages = state.messages
          .filter((message) => message.threadId === id && !message.labelIds.includes('DRAFT'))
          .sort((a, b) => Number(a.internalDate) - Number(b.internalDate));
        if (messages.length === 0) return googleError(404, 'Requested entity was not found.', 'notFound');
        return {
          status: 200,
          json: {
            id,
            historyId: String(1000 + counter),
            messages: messages.map((message) => view(message, request.query)),
          },
        };
      },
    },
    {
      method: 'POST',
      path: /^\/gmail\/v1\/users\/me\/messages\/send$/,
      answer: (request) => {
        const checked = incoming(request.json);
        if ('status' in checked) return checked;
        const { message, sent } = storeRaw(checked.raw, checked.threadId, 'SENT');
        state.messages.push(message);
        state.sent.push(sent);
        return {
          status: 200,
          json: { id: message.id, threadId: message.threadId, labelIds: message.labelIds },
        };
      },
    },
    {
      // drafts.list: `q` searches the drafts' messages, as Gmail's search box does.
      method: 'GET',
      path: /^\/gmail\/v1\/users\/me\/drafts$/,
      answer: (request) => {
        const matches = search(
          state.drafts.map((draft) => draft.message),
          `in:drafts ${request.query.get('q') ?? ''}`,
        );
        const drafts = state.drafts.filter((draft) => matches.includes(draft.message));
        return {
          status: 200,
          json: {
            ...(drafts.length > 0
              ? {
                  drafts: drafts.map(({ id, message }) => ({
                    id,
                    message: { id: message.id, threadId: message.threadId },
                  })),
                }
              : {}),
            resultSizeEstimate: drafts.length,
          },
        };
      },
    },
    {
      method: 'POST',
      path: /^\/gmail\/v1\/users\/me\/drafts$/,
      answer: (request) => {
        const body = request.json as { message?: unknown } | undefined;
        const checked = incoming(body?.message);
        if ('status' in checked) return checked;
        const { message } = storeRaw(checked.raw, checked.threadId, 'DRAFT');
        const draft = { id: `r-${nextId()}`, message };
        state.messages.push(message);
        state.drafts.push(draft);
        return {
          status: 200,
          json: {
            id: draft.id,
            message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds },
          },
        };
      },
    },
    {
      // drafts.delete: the draft and its message are gone for good (not in the trash), as in Gmail.
      method: 'DELETE',
      path: /^\/gmail\/v1\/users\/me\/drafts\/([^/]+)$/,
      answer: (_request, id) => {
        const draft = state.drafts.find((candidate) => candidate.id === id);
        if (!draft) return googleError(404, 'Requested entity was not found.', 'notFound');
        state.drafts.splice(state.drafts.indexOf(draft), 1);
        state.messages.splice(state.messages.indexOf(draft.message), 1);
        return { status: 204 };
      },
    },
  ];

  const handler: FakeHandler = (request) => {
    for (const route of routes) {
      const match = route.path.exec(request.path);
      if (match && request.method === route.method)
        return route.answer(request, decodeURIComponent(match[1] ?? ''));
    }
    return null;
  };
  return { handler, state };
}

function leaf(mimeType: string, contentType: string, bytes: Buffer): FakePart {
  return {
    partId: '',
    mimeType,
    filename: '',
    headers: [{ name: 'Content-Type', value: contentType }],
    body: { size: bytes.length, data: base64url(bytes) },
  };
}

function multipart(mimeType: string, parts: FakePart[]): FakePart {
  return {
    partId: '',
    mimeType,
    filename: '',
    headers: [{ name: 'Content-Type', value: `${mimeType}; boundary="b-${mimeType.slice(10)}"` }],
    body: { size: 0 },
    parts,
  };
}

function numberParts(part: FakePart, id: string): void {
  part.partId = id;
  part.parts?.forEach((child, index) => numberParts(child, id === '' ? String(index) : `${id}.${index}`));
}

/** Gmail's snippet: the start of the text, HTML-escaped. */
function snippetOf(text: string): string {
  const escapes: Record<string, string> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  };
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120)
    .replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

/** The message as messages.get / threads.get return it for `format` (full, metadata, minimal, raw). */
function view(message: FakeMessage, query: URLSearchParams): Record<string, unknown> {
  const format = query.get('format') ?? 'full';
  const base = {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds,
    snippet: message.snippet,
    internalDate: message.internalDate,
    sizeEstimate: JSON.stringify(message.payload).length,
    historyId: '1000',
  };
  if (format === 'minimal') return base;
  if (format === 'raw')
    return { ...base, raw: message.raw ? base64url(Buffer.from(message.raw)) : undefined };
  if (format === 'metadata') {
    const wanted = query.getAll('metadataHeaders').map((name) => name.toLowerCase());
    const headers = message.payload.headers.filter(
      (header) => wanted.length === 0 || wanted.includes(header.name.toLowerCase()),
    );
    return { ...base, payload: { partId: '', mimeType: message.payload.mimeType, filename: '', headers } };
  }
  return { ...base, payload: message.payload };
}

function headerValue(message: FakeMessage, name: string): string {
  return message.payload.headers.find((header) => header.name.toLowerCase() === name)?.value ?? '';
}

/** A small part of Gmail's search language: rfc822msgid:, from:, to:, subject:, in:, free words; newest first. */
function search(messages: readonly FakeMessage[], q: string): FakeMessage[] {
  const terms = q.match(/(?:[a-z0-9]+:)?(?:"[^"]*"|\S+)/gi) ?? [];
  const isDraftSearch = terms.some((term) => /^in:drafts?$/i.test(term));
  return messages
    .filter((message) => isDraftSearch || !message.labelIds.includes('DRAFT'))
    .filter((message) =>
      terms.every((term) => {
        const colon = term.indexOf(':');
        const operator = colon > 0 ? term.slice(0, colon).toLowerCase() : '';
        const value = (colon > 0 ? term.slice(colon + 1) : term).replace(/^"|"$/g, '').toLowerCase();
        const has = (text: string) => text.toLowerCase().includes(value);
        switch (operator) {
          case 'rfc822msgid':
            return (
              headerValue(message, 'message-id').replace(/[<>]/g, '').toLowerCase() ===
              value.replace(/[<>]/g, '')
            );
          case 'from':
            return has(headerValue(message, 'from'));
          case 'to':
            return (
              has(headerValue(message, 'to')) ||
              has(headerValue(message, 'cc')) ||
              has(headerValue(message, 'bcc'))
            );
          case 'subject':
            return has(headerValue(message, 'subject'));
          case 'in':
            return (
              value === 'anywhere' ||
              message.labelIds.some(
                (label) => label.toLowerCase() === value.replace(/s$/, '') || label.toLowerCase() === value,
              )
            );
          default:
            return (
              has(headerValue(message, 'subject')) || has(headerValue(message, 'from')) || has(message.text)
            );
        }
      }),
    )
    .sort((a, b) => Number(b.internalDate) - Number(a.internalDate));
}

/** Headers (unfolded, names lowercased, RFC 2047 decoded) and the decoded single-part text body. */
export function parseMime(raw: string): { headers: Record<string, string>; list: Header[]; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const rest = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  const list: Header[] = [];
  for (const line of head.replace(/\r?\n[ \t]/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim();
      const value = decodeWords(line.slice(colon + 1).trim());
      headers[name.toLowerCase()] = value;
      list.push({ name, value });
    }
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const charset = /charset="?([^";\s]+)/i.exec(headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(rest.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') {
    bytes = qpBytes(rest.replace(/=\r?\n/g, ''), false);
  } else bytes = Buffer.from(rest, 'utf8');
  return { headers, list, body: new TextDecoder(charset).decode(bytes).replace(/\r\n/g, '\n') };
}

function qpBytes(text: string, isHeader: boolean): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else if (isHeader && text[i] === '_') out.push(0x20);
    else out.push(...Buffer.from(text[i] ?? '', 'utf8'));
  }
  return Buffer.from(out);
}

function decodeWords(value: string): string {
  return value
    .replace(/(\?=)[ \t]+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([bq])\?([^?]*)\?=/gi, (_match, charset: string, kind: string, text: string) =>
      new TextDecoder(charset).decode(
        kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : qpBytes(text, true),
      ),
    );
}
