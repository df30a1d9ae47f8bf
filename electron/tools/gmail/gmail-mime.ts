/**
 * The outgoing mail Deputy writes and the header words it reads back: a small RFC 5322 / 2045 / 2047 builder
 * for one UTF-8 text/plain part, and the decoder for encoded-words. No dependency: the subset we write is
 * small enough to test completely.
 */

const CRLF = '\r\n';
/** An encoded-word may be 75 characters; `=?UTF-8?B?` and `?=` take 12, leaving 63, so 60 of base64 = 45 bytes. */
const ENCODED_WORD_BYTES = 45;
const BASE64_LINE = 76;

/** The Message-ID a sent mail carries, so a crash-recovered run can search sent mail for it and never send twice. */
export function deputyMessageId(idempotencyKey: string): string {
  return `<deputy.${idempotencyKey}@deputy.local>`;
}

export interface OutgoingMail {
  to: readonly string[];
  cc: readonly string[];
  bcc: readonly string[];
  subject: string;
  body: string;
  date: Date;
  messageId: string;
  /** The Message-ID of the mail this replies to. */
  inReplyTo?: string;
  /** The thread's Message-IDs, oldest first, ending with `inReplyTo`. */
  references?: readonly string[];
}

/**
 * The raw RFC 5322 message. Header values reach here already validated (no CR or LF: see the tools' input
 * schemas); ids from another mail are re-checked by `messageIdsIn`, so no header can be smuggled in.
 */
export function buildMessage(mail: OutgoingMail): string {
  const headers: [string, string][] = [
    ['MIME-Version', '1.0'],
    ['Date', formatDate(mail.date)],
    ['Message-ID', mail.messageId],
    ['To', addressList(mail.to)],
  ];
  if (mail.cc.length > 0) headers.push(['Cc', addressList(mail.cc)]);
  // Gmail reads Bcc to deliver the copies and removes it from what recipients see.
  if (mail.bcc.length > 0) headers.push(['Bcc', addressList(mail.bcc)]);
  headers.push(['Subject', encodeHeaderText(mail.subject)]);
  if (mail.inReplyTo) headers.push(['In-Reply-To', mail.inReplyTo]);
  if (mail.references && mail.references.length > 0) {
    headers.push(['References', mail.references.join(`${CRLF} `)]);
  }
  headers.push(['Content-Type', 'text/plain; charset=UTF-8'], ['Content-Transfer-Encoding', 'base64']);
  const head = headers.map(([name, value]) => `${name}: ${value}`).join(CRLF);
  return `${head}${CRLF}${CRLF}${base64Body(mail.body)}`;
}

/** RFC 5322 date-time in UTC: `Sun, 22 Nov 2026 09:00:00 +0000`. */
export function formatDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

function addressList(addresses: readonly string[]): string {
  return addresses.join(`,${CRLF} `);
}

/**
 * Plain ASCII text goes as is; anything else (or text that looks like an encoded-word itself) becomes UTF-8
 * B encoded-words, split on character boundaries and folded onto continuation lines.
 */
export function encodeHeaderText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text) && !text.includes('=?')) return text;
  const words: string[] = [];
  let chunk: Buffer[] = [];
  let size = 0;
  const flush = (): void => {
    words.push(`=?UTF-8?B?${Buffer.concat(chunk).toString('base64')}?=`);
    chunk = [];
    size = 0;
  };
  for (const character of text) {
    const bytes = Buffer.from(character, 'utf8');
    if (size + bytes.length > ENCODED_WORD_BYTES) flush();
    chunk.push(bytes);
    size += bytes.length;
  }
  if (size > 0) flush();
  return words.join(`${CRLF} `);
}

/** Text bodies travel with CRLF line ends (RFC 2045 canonical form), base64 in lines of 76. */
function base64Body(body: string): string {
  const canonical = body.replace(/\r\n|\r|\n/g, CRLF);
  const encoded = Buffer.from(canonical, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += BASE64_LINE) lines.push(encoded.slice(at, at + BASE64_LINE));
  return `${lines.join(CRLF)}${CRLF}`;
}

/** Gmail's `raw` field: the whole message in base64url. */
export function toRaw(message: string): string {
  return Buffer.from(message, 'utf8').toString('base64url');
}

/**
 * The `<id@host>` tokens in a Message-ID or References value. Only these are copied into a reply, so a
 * crafted header on an incoming mail cannot add text (or lines) to ours.
 */
export function messageIdsIn(value: string | null | undefined): string[] {
  if (!value) return [];
  return value.match(/<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>/g) ?? [];
}

/** The subject of a reply: the original's, with one "Re: " in front. */
export function replySubject(subject: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  const clean = subject.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return /^re:/i.test(clean) ? clean : `Re: ${clean}`;
}

const ENCODED_WORD = /=\?([^?\s]{1,40})\?([BbQq])\?([^?\s]*)\?=/g;

/**
 * Decodes RFC 2047 encoded-words in a header value. Whitespace between two adjacent encoded-words is dropped,
 * as the RFC says; adjacent words in the same charset are joined as bytes first, because a sender may split a
 * multi-byte character across them. An unknown charset leaves the word as it was.
 */
export function decodeHeaderWords(value: string): string {
  let out = '';
  let at = 0;
  let group: EncodedWord[] = [];
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [raw, rawCharset = '', encoding = '', text = ''] = match;
    const word: EncodedWord = {
      // A charset may carry a language (`UTF-8*en`, RFC 2231); only the charset matters here.
      charset: rawCharset.split('*')[0]?.toLowerCase() ?? '',
      bytes: encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQ(text),
      raw,
    };
    const gap = value.slice(at, match.index);
    const isAdjacent = group.length > 0 && /^[ \t\r\n]*$/.test(gap);
    if (isAdjacent && group[0]?.charset === word.charset) {
      group.push(word);
    } else {
      out += decodeGroup(group);
      if (!isAdjacent) out += gap;
      group = [word];
    }
    at = match.index + raw.length;
  }
  return out + decodeGroup(group) + value.slice(at);
}

interface EncodedWord {
  charset: string;
  bytes: Buffer;
  raw: string;
}

function decodeGroup(group: readonly EncodedWord[]): string {
  const [first] = group;
  if (!first) return '';
  const bytes = Buffer.concat(group.map((word) => word.bytes));
  return decodeBytes(bytes, first.charset) ?? group.map((word) => word.raw).join('');
}

function decodeQ(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    const hex = text.slice(i + 1, i + 3);
    if (char === '_') bytes.push(0x20);
    else if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i) & 0xff);
  }
  return Buffer.from(bytes);
}

/** Bytes in a named charset to text; null when the charset is unknown. */
export function decodeBytes(bytes: Buffer, charset: string): string | null {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return null;
  }
}
