import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeArgsIssues } from '../../../electron/tools/args-words';

/** What a call to `tool` with `args` is told, checked as the registry checks it. */
function words(schema: z.ZodType, args: unknown, options: { reportInput?: boolean } = { reportInput: true }) {
  const parsed = schema.safeParse(args, options);
  if (parsed.success) throw new Error('the arguments fit');
  return describeArgsIssues('add_task', parsed.error);
}

const task = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).strict();

describe('what a tool call is told about its arguments', () => {
  it('invalid_type: the kind wanted and the kind sent, and a missing argument as missing', () => {
    const schema = task({ description: z.string(), count: z.number().int().optional() });
    expect(words(schema, { description: 42 })).toBe("add_task's description must be text, not a number.");
    expect(words(schema, { description: ['a'] })).toBe("add_task's description must be text, not a list.");
    expect(words(schema, { description: null })).toBe("add_task's description must be text, not null.");
    expect(words(schema, {})).toBe("add_task's description is missing: it is required, as text.");
    expect(words(schema, { description: 'x', count: 1.5 })).toBe(
      "add_task's count must be a whole number, not a fraction.",
    );
    expect(words(schema, [])).toBe("add_task's arguments must be an object, not a list.");
  });

  it('invalid_type: the kind sent is read from zod’s words when the values were not kept', () => {
    const schema = task({ description: z.string(), done: z.boolean().optional() });
    expect(words(schema, { description: 42 }, {})).toBe("add_task's description must be text, not a number.");
    expect(words(schema, {}, {})).toBe("add_task's description is missing: it is required, as text.");
    expect(words(schema, { description: 'x', done: 'yes' }, {})).toBe(
      "add_task's done must be true or false, not text.",
    );
  });

  it('too_small and too_big: of text, of lists and of numbers', () => {
    const schema = task({
      description: z.string().min(1).max(10).optional(),
      code: z.string().min(3).optional(),
      tags: z.array(z.string()).min(1).max(2).optional(),
      people: z.array(z.string()).min(2).optional(),
      hours: z.number().min(1).max(8).optional(),
      share: z.number().gt(0).lt(1).optional(),
    });
    expect(words(schema, { description: '' })).toBe("add_task's description must not be empty.");
    expect(words(schema, { description: 'x'.repeat(11) })).toBe(
      "add_task's description must be at most 10 characters long.",
    );
    expect(words(schema, { code: 'ab' })).toBe("add_task's code must be at least 3 characters long.");
    expect(words(schema, { tags: [] })).toBe("add_task's tags must not be an empty list.");
    expect(words(schema, { tags: ['a', 'b', 'c'] })).toBe("add_task's tags must have at most 2 items.");
    expect(words(schema, { people: ['a'] })).toBe("add_task's people must have at least 2 items.");
    expect(words(schema, { hours: 0 })).toBe("add_task's hours must be at least 1.");
    expect(words(schema, { hours: 9 })).toBe("add_task's hours must be at most 8.");
    expect(words(schema, { share: 0 })).toBe("add_task's share must be more than 0.");
    expect(words(schema, { share: 1 })).toBe("add_task's share must be less than 1.");
  });

  it('invalid_value: the values it takes, from an enum or a literal', () => {
    const schema = task({
      status: z.enum(['open', 'done', 'all']).optional(),
      kind: z.enum(['a', 'b']).optional(),
      version: z.literal(2).optional(),
    });
    expect(words(schema, { status: 'later' })).toBe(
      'add_task\'s status must be one of "open", "done" or "all".',
    );
    expect(words(schema, { kind: 'c' })).toBe('add_task\'s kind must be one of "a" or "b".');
    expect(words(schema, { version: 3 })).toBe("add_task's version must be 2.");
  });

  it('unrecognized_keys: the arguments it does not take, at the top or inside one', () => {
    const schema = task({
      description: z.string(),
      place: z.object({ name: z.string() }).strict().optional(),
    });
    expect(words(schema, { description: 'x', priority: 'high' })).toBe(
      'add_task has no argument named "priority": leave it out.',
    );
    expect(words(schema, { description: 'x', priority: 1, colour: 'red' })).toBe(
      'add_task has no arguments named "priority" or "colour": leave them out.',
    );
    expect(words(schema, { description: 'x', place: { name: 'Home', floor: 2 } })).toBe(
      'add_task\'s place has no argument named "floor": leave it out.',
    );
  });

  it('invalid_format: email, web address, date and time, and a pattern, by its own words when it has some', () => {
    const schema = task({
      email: z.email().optional(),
      link: z.url().optional(),
      at: z.iso.datetime().optional(),
      day: z.iso.date().optional(),
      code: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
      clock: z
        .string()
        .regex(/^\d\d:\d\d$/, { message: 'use HH:MM, e.g. 09:00' })
        .optional(),
    });
    expect(words(schema, { email: 'ana' })).toBe(
      "add_task's email must be an email address, like ana@example.com.",
    );
    expect(words(schema, { link: 'not a link' })).toBe(
      "add_task's link must be a web address (URL), like https://example.com.",
    );
    expect(words(schema, { at: 'tomorrow' })).toBe(
      "add_task's at must be a date and time in ISO 8601, like 2026-11-28T09:30:00Z.",
    );
    expect(words(schema, { day: '28/11' })).toBe(
      "add_task's day must be a date in ISO 8601, like 2026-11-28.",
    );
    expect(words(schema, { code: 'abc' })).toBe(
      "add_task's code must be in the form the tool expects (see its description).",
    );
    expect(words(schema, { clock: '9am' })).toBe("add_task's clock: use HH:MM, e.g. 09:00.");
  });

  it('keeps the path of an argument inside a list, and says a check of the tool’s own after what it is about', () => {
    const schema = task({
      attendees: z.array(z.object({ email: z.email() })),
      start: z.string(),
      end: z.string(),
    }).superRefine((input, context) => {
      if (input.end >= input.start) return;
      context.addIssue({ code: 'custom', message: 'end after the start', path: ['end'] });
      context.addIssue({ code: 'custom', message: 'give a reason' });
    });
    expect(
      words(schema, { attendees: [{ email: 'a@example.com' }, { email: 'b' }], start: '2', end: '3' }),
    ).toBe("add_task's attendees[1].email must be an email address, like ana@example.com.");
    expect(words(schema, { attendees: [], start: '2', end: '1' })).toBe(
      "add_task's end: end after the start. add_task: give a reason.",
    );
  });

  it('not_multiple_of and invalid_union, and counts what is past the tenth', () => {
    const schema = task({
      step: z.number().multipleOf(5).optional(),
      when: z.union([z.string(), z.number()]).optional(),
    });
    expect(words(schema, { step: 3 })).toBe("add_task's step must be a multiple of 5.");
    expect(words(schema, { when: true })).toBe("add_task's when is not in any of the forms it takes.");
    const twelve = task(
      Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`f${index.toString()}`, z.string()])),
    );
    const said = words(twelve, {});
    expect(said.split('is missing')).toHaveLength(11);
    expect(said).toMatch(/ 2 more arguments are wrong too\.$/);
  });

  it('never quotes a value the call sent (only the names of arguments it does not take)', () => {
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const schema = task({ email: z.email(), status: z.enum(['open']), code: z.string().regex(/^\d+$/) });
    expect(words(schema, { email: secret, status: secret, code: secret })).not.toContain(secret.slice(4));
  });
});
