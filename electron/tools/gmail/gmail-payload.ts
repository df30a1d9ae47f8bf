import type { gmail_v1 } from '@googleapis/gmail';
import { decodeBytes, decodeHeaderWords } from './gmail-mime';
import { htmlToText } from './gmail-text';

type Part = gmail_v1.Schema$MessagePart;

export interface Attachment {
  filename: string;
  mimeType: string;
  size: number;
}

/** A header's value (names compare case-insensitively), with encoded-words decoded; '' when absent. */
export function headerOf(part: Part | undefined, name: string): string {
  const wanted = name.toLowerCase();
  const found = part?.headers?.find((header) => header.name?.toLowerCase() === wanted);
  return found?.value ? decodeHeaderWords(found.value) : '';
}

function isAttachment(part: Part): boolean {
  return Boolean(part.filename) || /^\s*attachment/i.test(headerOf(part, 'Content-Disposition'));
}

/**
 * Every part of a message, depth first in document order. Kept off the call stack: a message nested thousands of
 * levels deep (anyone can send one) took a quarter of a second at 3,000 levels, walked by nested generators,
 * and failed with a stack overflow past about 5,000.
 */
function walk(root: Part): Part[] {
  const found: Part[] = [];
  const ahead: Part[] = [root];
  for (let part = ahead.pop(); part !== undefined; part = ahead.pop()) {
    found.push(part);
    const children = part.parts ?? [];
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child: unknown = children[index];
      if (typeof child === 'object' && child !== null) ahead.push(child);
    }
  }
  return found;
}

function charsetOf(part: Part): string {
  const match = /charset\s*=\s*"?([^";\s]{1,40})/i.exec(headerOf(part, 'Content-Type'));
  return match?.[1] ?? 'utf-8';
}

function partText(part: Part): string {
  const bytes = Buffer.from(part.body?.data ?? '', 'base64url');
  return decodeBytes(bytes, charsetOf(part)) ?? bytes.toString('utf8');
}

/**
 * The readable text of a message: its first text/plain part, or else its first text/html part reduced to
 * text, with line ends made `\n`. Parts that are attachments never count as the body.
 */
export function bodyText(payload: Part | undefined): string {
  if (!payload) return '';
  const parts = walk(payload).filter((part) => !isAttachment(part) && part.body?.data);
  const plain = parts.find((part) => part.mimeType?.toLowerCase() === 'text/plain');
  if (plain) return partText(plain).replace(/\r\n?/g, '\n');
  const html = parts.find((part) => part.mimeType?.toLowerCase() === 'text/html');
  return html ? htmlToText(partText(html)) : '';
}

/** What is attached, by name, type and size; the content is never fetched. */
export function attachmentsOf(payload: Part | undefined): Attachment[] {
  if (!payload) return [];
  return walk(payload)
    .filter(isAttachment)
    .map((part) => ({
      filename: decodeHeaderWords(part.filename ?? '') || '(unnamed)',
      mimeType: part.mimeType ?? 'application/octet-stream',
      size: part.body?.size ?? 0,
    }));
}
