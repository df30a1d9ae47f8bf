/**
 * Mail HTML reduced to readable text for the model. A single forward scan with indexOf and small patterns
 * tried at one position: no backtracking regex over the whole document, so a hostile message costs time
 * linear in its length. Script, style and other non-content elements are dropped with their content, and so
 * is anything hidden from the person reading the mail: text they cannot see is a way to slip instructions past
 * them to the model.
 */

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

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  zwnj: '',
  zwj: '',
  shy: '',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  deg: '°',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  times: '×',
  divide: '÷',
  plusmn: '±',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  iexcl: '¡',
  iquest: '¿',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  aacute: 'á',
  agrave: 'à',
  acirc: 'â',
  ccedil: 'ç',
  ntilde: 'ñ',
  oacute: 'ó',
  iacute: 'í',
  uacute: 'ú',
  Eacute: 'É',
  oslash: 'ø',
  aring: 'å',
  aelig: 'æ',
};

const ENTITY = /&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

/** Decodes character references; unknown names stay as written, invalid code points become U+FFFD. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    ENTITY,
    (match, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED_ENTITIES[name] ?? match;
      const code = parseInt(hex ?? decimal ?? '', hex !== undefined ? 16 : 10);
      const isValid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return isValid ? String.fromCodePoint(code) : '\uFFFD';
    },
  );
}

interface Tag {
  name: string;
  isClosing: boolean;
  /** Written `<x ... />`: it has no content to skip. */
  isSelfClosing: boolean;
  attributes: Map<string, string>;
  /** Index just past the tag's `>`. */
  end: number;
}

const TAG_NAME = /[A-Za-z][A-Za-z0-9-]*/y;

/** Reads the tag that starts at `<` at `start`; null when it is not a tag (a lone "<" in text). */
function readTag(html: string, start: number): Tag | null {
  let at = start + 1;
  const isClosing = html[at] === '/';
  if (isClosing) at += 1;
  TAG_NAME.lastIndex = at;
  const nameMatch = TAG_NAME.exec(html);
  if (!nameMatch) return null;
  at = TAG_NAME.lastIndex;
  const attributes = new Map<string, string>();
  while (at < html.length) {
    const char = html[at] ?? '';
    if (char === '>') {
      const isSelfClosing = html[at - 1] === '/';
      return { name: nameMatch[0].toLowerCase(), isClosing, isSelfClosing, attributes, end: at + 1 };
    }
    if (/[\s/]/.test(char)) {
      at += 1;
      continue;
    }
    let nameEnd = at;
    while (nameEnd < html.length && !/[\s/>=]/.test(html[nameEnd] ?? '')) nameEnd += 1;
    const attribute = html.slice(at, nameEnd).toLowerCase();
    at = nameEnd;
    while (at < html.length && /\s/.test(html[at] ?? '')) at += 1;
    if (html[at] !== '=') {
      attributes.set(attribute, '');
      continue;
    }
    at += 1;
    while (at < html.length && /\s/.test(html[at] ?? '')) at += 1;
    const quote = html[at];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, at + 1);
      const valueEnd = close === -1 ? html.length : close;
      value = html.slice(at + 1, valueEnd);
      at = valueEnd + 1;
    } else {
      let valueEnd = at;
      while (valueEnd < html.length && !/[\s>]/.test(html[valueEnd] ?? '')) valueEnd += 1;
      value = html.slice(at, valueEnd);
      at = valueEnd;
    }
    attributes.set(attribute, decodeEntities(value));
  }
  return { name: nameMatch[0].toLowerCase(), isClosing, isSelfClosing: false, attributes, end: html.length };
}

/** Where the content of a skipped element ends: after its closing tag, or the end of the document. */
function skipElement(html: string, name: string, from: number): number {
  const closing = new RegExp(`</${name}[\\s/>]`, 'gi');
  closing.lastIndex = from;
  const found = closing.exec(html);
  if (!found) return html.length;
  const close = html.indexOf('>', found.index);
  return close === -1 ? html.length : close + 1;
}

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
