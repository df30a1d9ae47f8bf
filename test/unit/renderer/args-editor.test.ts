import { describe, expect, it } from 'vitest';
import { fieldLabel, joinMoment, splitMoment } from '../../../renderer/src/features/approvals/field-words';
import {
  argsOnlyInJson,
  editorFields,
  parseArgsJson,
  splitList,
  toArgs,
  toFormValues,
} from '../../../renderer/src/features/approvals/args-editor';

const schema = {
  type: 'object',
  properties: {
    to: { type: 'array', items: { type: 'string' } },
    subject: { type: 'string', maxLength: 200 },
    body: { type: 'string' },
    priority: { type: 'string', enum: ['low', 'high'] },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    isUrgent: { type: 'boolean' },
    due: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    attachments: { type: 'array', items: { type: 'object' } },
  },
  required: ['to', 'subject'],
  additionalProperties: false,
};

describe('editorFields', () => {
  it('makes a field for each simple top-level property and leaves the rest to JSON', () => {
    const fields = editorFields(schema);
    expect(fields.map((field) => `${field.name}:${field.kind}`)).toEqual([
      'to:list',
      'subject:text',
      'body:text',
      'priority:choice',
      'count:integer',
      'ratio:number',
      'isUrgent:boolean',
      'due:moment',
    ]);
    expect(fields.find((field) => field.name === 'to')).toMatchObject({ isRequired: true });
    expect(fields.find((field) => field.name === 'body')).toMatchObject({ isLong: true, isRequired: false });
    expect(fields.find((field) => field.name === 'priority')?.choices).toEqual(['low', 'high']);
    expect(fields.find((field) => field.name === 'due')).toMatchObject({ isNullable: true });
    expect(argsOnlyInJson(fields, { to: [], attachments: [] })).toEqual(['attachments']);
    expect(editorFields({})).toEqual([]);
  });
});

describe('form values and args', () => {
  const fields = editorFields(schema);
  const original = {
    to: ['sam@x.io', 'kim@x.io'],
    subject: 'Hi',
    count: 2,
    isUrgent: true,
    due: '2026-11-22',
    attachments: [{ name: 'a.pdf' }],
  };

  it('round-trips the arguments through the form', () => {
    const values = toFormValues(fields, original);
    expect(values).toMatchObject({
      to: 'sam@x.io\nkim@x.io',
      subject: 'Hi',
      count: '2',
      isUrgent: true,
      body: '',
    });
    expect(toArgs(fields, values, original)).toEqual({ ok: true, args: original });
  });

  it('converts edited values to their types and keeps what the form does not show', () => {
    const values = {
      ...toFormValues(fields, original),
      to: 'sam@x.io, lee@y.io\n',
      count: ' 7 ',
      ratio: '0.5',
      isUrgent: false,
      due: '',
      body: 'Hello\nthere',
    };
    expect(toArgs(fields, values, original)).toEqual({
      ok: true,
      args: {
        to: ['sam@x.io', 'lee@y.io'],
        subject: 'Hi',
        body: 'Hello\nthere',
        count: 7,
        ratio: 0.5,
        isUrgent: false,
        // Emptied, nullable and set before: cleared.
        due: null,
        attachments: [{ name: 'a.pdf' }],
      },
    });
  });

  it('leaves out an emptied optional field the call did not have, and keeps an emptied required one', () => {
    const args = { to: ['sam@x.io'], subject: 'Hi' };
    const values = { ...toFormValues(fields, args), subject: '' };
    const result = toArgs(fields, values, args);
    expect(result).toEqual({ ok: true, args: { to: ['sam@x.io'], subject: '' } });
  });

  it('names the field when a number is not one', () => {
    const values = { ...toFormValues(fields, original), count: '2.5' };
    expect(toArgs(fields, values, original)).toEqual({
      ok: false,
      field: 'count',
      message: 'count: enter a whole number',
    });
    expect(toArgs(fields, { ...values, count: 'lots' }, original)).toMatchObject({
      ok: false,
      field: 'count',
    });
  });

  it('splits lists on commas and new lines', () => {
    expect(splitList(' a@x.io,b@x.io\n\n c@x.io ,')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
  });
});

describe('parseArgsJson', () => {
  it('accepts an object only', () => {
    expect(parseArgsJson('{"description":"Buy oat milk"}')).toEqual({
      ok: true,
      args: { description: 'Buy oat milk' },
    });
    expect(parseArgsJson('[1]')).toMatchObject({ ok: false, field: null });
    expect(parseArgsJson('{oops')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not valid'),
    });
  });
});

describe('moments and labels', () => {
  it('splits a date-time for the pickers and puts it back with the offset it had', () => {
    expect(splitMoment('2026-03-09T14:00:00+01:00')).toEqual({ date: '2026-03-09', time: '14:00' });
    expect(splitMoment('2026-03-09')).toEqual({ date: '2026-03-09', time: '' });
    expect(joinMoment('2026-03-10', '15:30', '2026-03-09T14:00:00+01:00')).toBe('2026-03-10T15:30:00+01:00');
    expect(joinMoment('2026-03-10', '', '2026-03-09T14:00:00+01:00')).toBe('2026-03-10');
    expect(joinMoment('2026-03-10', '09:00', '2026-03-09')).toBe('2026-03-10T09:00');
  });

  it('names arguments in words', () => {
    expect(fieldLabel('replyToMessageId')).toBe('In reply to (message)');
    expect(fieldLabel('maxResults')).toBe('Max results');
    expect(fieldLabel('due')).toBe('Due');
  });
});
