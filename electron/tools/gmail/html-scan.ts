/**
 * The two pieces of reading HTML that know nothing of mail: character references, and one tag at a position.
 * Both scan forward with indexOf and patterns anchored at one position, so a hostile document costs time
 * linear in its length.
 */

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

export interface Tag {
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
export function readTag(html: string, start: number): Tag | null {
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
export function skipElement(html: string, name: string, from: number): number {
  const closing = new RegExp(`</${name}[\\s/>]`, 'gi');
  closing.lastIndex = from;
  const found = closing.exec(html);
  if (!found) return html.length;
  const close = html.indexOf('>', found.index);
  return close === -1 ? html.length : close + 1;
}
