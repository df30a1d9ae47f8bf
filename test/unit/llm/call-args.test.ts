import { describe, expect, it } from 'vitest';
import { callArgs, MAX_ARGS_DEPTH } from '../../../electron/llm/call-args';

/** An object `levels` deep: `{a: {a: … {}}}`. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level += 1) value = { a: value };
  return value;
}

describe('callArgs', () => {
  it('keeps arguments up to the depth limit and refuses deeper ones, saying why', () => {
    expect(callArgs(nested(MAX_ARGS_DEPTH))).toEqual({ args: nested(MAX_ARGS_DEPTH) });
    expect(callArgs(nested(MAX_ARGS_DEPTH + 1))).toEqual({
      args: {},
      sentAs: `one nested more than ${MAX_ARGS_DEPTH} levels deep`,
    });
  });

  it('counts arrays as levels too, and checks 100,000 levels without running out of stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(callArgs({ list: deep }).sentAs).toMatch(/nested more than/);
    expect(callArgs({ list: [[['fine']]] })).toEqual({ args: { list: [[['fine']]] } });
  });
});
