/**
 * Mail HTML reduced to readable text for the model. A single forward scan with indexOf and small patterns
 * tried at one position: no backtracking regex over the whole document, so a hostile message costs time
 * linear in its length. Script, style and other non-content elements are dropped with their content, and so
 * is anything hidden from the person reading the mail: text they cannot see is a way to slip instructions past
 * them to the model.
 */

import { decodeEntities, readTag, skipElement, type Tag } from './html-scan';

/**
 * Elements whose content is never shown to a reader. Not `head`: its end tag may be left out, and skipping to
 * a `</head>` that never comes would lose the whole body; what it holds (title, style, script) is listed.
 */
const SKIPPED = new Set([
  'script',
  'style',
  'title',
  'template',
  'noscript',
  'svg',
  'math',
  'iframe',
  'object',
]);
/** Elements that never have content or an end tag: hiding one hides only itself. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
/** Elements that start a new line. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'ul',
]);
/** Elements that are a paragraph break (a blank line) rather than a line break. */
const PARAGRAPH = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'table',
  'ul',
  'ol',
  'pre',
  'hr',
]);

/**
 * Whether inline CSS hides the element: display:none, visibility:hidden (or collapse), or a zero font size.
 * Read declaration by declaration with indexOf and parseFloat, so a long style costs time linear in its length.
 */
function isHiddenByStyle(style: string): boolean {
  for (const declaration of withoutCssComments(style).split(';')) {
    const colon = declaration.indexOf(':');
    if (colon === -1) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const bang = declaration.indexOf('!', colon);
    const value = declaration
      .slice(colon + 1, bang === -1 ? undefined : bang)
      .trim()
      .toLowerCase();
    if (property === 'display' && value === 'none') return true;
    if (property === 'visibility' && (value === 'hidden' || value === 'collapse')) return true;
    if (property === 'font-size' && parseFloat(value) === 0) return true;
  }
  return false;
}

/** A comment inside a declaration (`display:/* x *\/none`) still hides: comments go before reading. */
function withoutCssComments(style: string): string {
  let out = '';
  let at = 0;
  while (at < style.length) {
    const open = style.indexOf('/*', at);
    if (open === -1) return out + style.slice(at);
    out += style.slice(at, open);
    const close = style.indexOf('*/', open + 2);
    at = close === -1 ? style.length : close + 2;
  }
  return out;
}

function isHidden(tag: Tag): boolean {
  return tag.attributes.has('hidden') || isHiddenByStyle(tag.attributes.get('style') ?? '');
}

/** A link whose text does not already say where it goes keeps its address in brackets. */
function linkTarget(href: string | undefined): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  return /^(https?:|mailto:)/i.test(trimmed) ? trimmed.replace(/^mailto:/i, '') : null;
}

/**
 * Collects the text line by line. It never reads back what it has appended (no `endsWith` on a growing
 * string), because that makes V8 flatten the string on every call: quadratic on a hostile message.
 */
class TextOut {
  private readonly lines: string[] = [];
  private line = '';
  private endsWithSpace = false;
  private blankLinesWanted = 0;
  /** Open captures (a link's own text); only the innermost one records, so nesting stays linear. */
  private readonly captures: { text: string }[] = [];

  startCapture(): void {
    this.captures.push({ text: '' });
  }

  endCapture(): string {
    return this.captures.pop()?.text ?? '';
  }

  text(value: string, isPreformatted: boolean): void {
    if (isPreformatted) {
      const [first = '', ...rest] = value.split(/\r\n|\r|\n/);
      this.append(first, true);
      for (const part of rest) {
        this.breakLine(0);
        this.append(part, true);
      }
      return;
    }
    this.append(value.replace(/\s+/g, ' '), false);
  }

  private append(value: string, isPreformatted: boolean): void {
    const isLineStart = this.line === '';
    if (!isPreformatted && (isLineStart || this.endsWithSpace) && value.startsWith(' '))
      value = value.slice(1);
    if (value === '') return;
    if (isLineStart && this.blankLinesWanted > 0 && this.lines.length > 0) this.lines.push('');
    this.blankLinesWanted = 0;
    this.line += value;
    this.endsWithSpace = value.endsWith(' ');
    const innermost = this.captures.at(-1);
    if (innermost) innermost.text += value;
  }

  /** Ends the current line; `blank` asks for a blank line before the next text. */
  breakLine(blank: number): void {
    if (this.line !== '') {
      this.lines.push(this.line.trimEnd());
      this.line = '';
      this.endsWithSpace = false;
    }
    this.blankLinesWanted = Math.max(this.blankLinesWanted, blank);
  }

  result(): string {
    this.breakLine(0);
    return this.lines.join('\n').trim();
  }
}

/** The readable text of an HTML mail body. Links keep their address as text, images their alt text. */
export function htmlToText(html: string): string {
  const out = new TextOut();
  const openLinks: (string | null)[] = [];
  let preDepth = 0;
  /**
   * The hidden element being skipped and how many elements of its name are open inside it, so its own end
   * tag is found in the same forward scan. One left unclosed hides the rest of the mail: erring toward hiding.
   */
  let hidden: { name: string; depth: number } | null = null;
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    const textEnd = lt === -1 ? html.length : lt;
    if (textEnd > at && !hidden) out.text(decodeEntities(html.slice(at, textEnd)), preDepth > 0);
    if (lt === -1) break;
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      at = close === -1 ? html.length : close + 3;
      continue;
    }
    if (html[lt + 1] === '!' || html[lt + 1] === '?') {
      const close = html.indexOf('>', lt);
      at = close === -1 ? html.length : close + 1;
      continue;
    }
    const tag = readTag(html, lt);
    if (!tag) {
      if (!hidden) out.text('<', preDepth > 0);
      at = lt + 1;
      continue;
    }
    at = tag.end;
    if (SKIPPED.has(tag.name)) {
      if (!tag.isClosing && !tag.isSelfClosing) at = skipElement(html, tag.name, at);
      continue;
    }
    if (hidden) {
      if (tag.name === hidden.name && !tag.isSelfClosing) hidden.depth += tag.isClosing ? -1 : 1;
      if (hidden.depth === 0) hidden = null;
      continue;
    }
    if (!tag.isClosing && isHidden(tag)) {
      if (!tag.isSelfClosing && !VOID.has(tag.name)) hidden = { name: tag.name, depth: 1 };
      continue;
    }
    if (tag.name === 'pre') preDepth = Math.max(0, preDepth + (tag.isClosing ? -1 : 1));
    if (tag.name === 'br') out.breakLine(0);
    else if (tag.name === 'a' && !tag.isClosing) {
      openLinks.push(linkTarget(tag.attributes.get('href')));
      out.startCapture();
    } else if (tag.name === 'a' && openLinks.length > 0) {
      const target = openLinks.pop();
      const text = out.endCapture().trim();
      if (target && text !== target) out.text(text ? ` (${target})` : target, false);
    } else if (tag.name === 'img' && tag.attributes.get('alt')) {
      out.text(` [${tag.attributes.get('alt') ?? ''}] `, false);
    } else if (tag.name === 'td' || tag.name === 'th') {
      if (!tag.isClosing) out.text(' ', false);
    } else if (BLOCK.has(tag.name)) {
      out.breakLine(PARAGRAPH.has(tag.name) ? 1 : 0);
      if (tag.name === 'li' && !tag.isClosing) out.text('- ', false);
    }
  }
  return out.result();
}
