/**
 * Common English given names and the short forms people use for them, written for Deputy, so that "email Bob"
 * can find Robert Hale. Its scope is small on purpose: a few dozen names that English speakers often shorten,
 * each with the everyday forms a colleague would write. Other languages' pet names, rare forms and surnames are
 * not in it; a name it lacks is matched only as written. A short form leads to its formal names and a formal
 * name to its short forms; two short forms of one name (Bob, Rob) do not lead to each other. A match through
 * this table is never taken silently: person-resolution.ts asks "Do you mean Robert Hale?".
 */
const SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  abigail: ['abby', 'abbie'],
  alexander: ['alex', 'alec', 'xander', 'sandy'],
  alexandra: ['alex', 'alexa', 'lexi', 'sandy'],
  andrew: ['andy', 'drew'],
  anthony: ['tony'],
  benjamin: ['ben', 'benny', 'benji'],
  catherine: ['kate', 'katie', 'cathy', 'cat'],
  charles: ['charlie', 'chuck'],
  christine: ['chris', 'chrissy', 'tina'],
  christopher: ['chris'],
  daniel: ['dan', 'danny'],
  david: ['dave', 'davey'],
  deborah: ['deb', 'debbie'],
  edward: ['ed', 'eddie', 'ted', 'ned'],
  elizabeth: ['liz', 'lizzie', 'beth', 'betty', 'eliza', 'libby'],
  gregory: ['greg'],
  james: ['jim', 'jimmy', 'jamie'],
  jennifer: ['jen', 'jenny'],
  jessica: ['jess', 'jessie'],
  john: ['jack', 'johnny'],
  jonathan: ['jon', 'jonny'],
  joseph: ['joe', 'joey'],
  katherine: ['kate', 'katie', 'kathy', 'kat'],
  kenneth: ['ken', 'kenny'],
  margaret: ['maggie', 'meg', 'peggy', 'marge'],
  matthew: ['matt'],
  michael: ['mike', 'mikey', 'mick'],
  nicholas: ['nick', 'nicky'],
  patricia: ['pat', 'patty', 'trish'],
  patrick: ['pat', 'paddy'],
  rebecca: ['becky', 'becca'],
  richard: ['rick', 'ricky', 'rich', 'dick'],
  robert: ['bob', 'bobby', 'rob', 'robbie'],
  samantha: ['sam', 'sammy'],
  samuel: ['sam', 'sammy'],
  stephen: ['steve', 'stevie'],
  steven: ['steve', 'stevie'],
  susan: ['sue', 'susie'],
  thomas: ['tom', 'tommy'],
  timothy: ['tim', 'timmy'],
  victoria: ['vicky', 'tori'],
  william: ['bill', 'billy', 'will', 'willy', 'liam'],
};

/** Each name in the table, to the names it leads to: a short form's formal names, a formal name's short forms. */
const OTHER_FORMS: ReadonlyMap<string, readonly string[]> = (() => {
  const forms = new Map<string, Set<string>>();
  const link = (from: string, to: string): void => {
    const known = forms.get(from) ?? new Set<string>();
    known.add(to);
    forms.set(from, known);
  };
  for (const [formal, shorts] of Object.entries(SHORT_FORMS))
    for (const short of shorts) {
      link(formal, short);
      link(short, formal);
    }
  return new Map([...forms].map(([name, others]) => [name, [...others]]));
})();

/** Lower case without accents, as names are compared: "José" → "jose". */
export const foldName = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The other forms of one given name, folded: "Bob" → robert; "Robert" → bob, bobby, rob, robbie; "Kate" →
 * catherine, katherine. Empty for a name the table does not hold.
 */
export const otherNameForms = (word: string): readonly string[] => OTHER_FORMS.get(foldName(word)) ?? [];
