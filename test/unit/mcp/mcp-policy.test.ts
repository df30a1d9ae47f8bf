import { describe, expect, it } from 'vitest';
import { decide } from '../../../electron/policy/decide';
import type { PolicyTool } from '../../../electron/policy/types';
import type { PolicyRule } from '../../../shared/contract/policy';
import { policyContext } from '../policy/policy-tools';

const NOW = new Date('2026-11-21T12:00:00Z');
const sure = { confidence: 0.95, intent: 'write the file' };
const writeFile: PolicyTool = {
  name: 'fs__write_file',
  category: 'external',
  risk: 'medium',
  hasSideEffects: true,
};
const rule = (tool: string, pattern: string): PolicyRule => ({
  id: 'r1',
  tool,
  field: 'path',
  pattern,
  effect: 'allow',
  expiresAt: null,
  createdAt: NOW.toISOString(),
});

describe('the policy for MCP tools', () => {
  it('asks for an MCP side effect at every trust level unless the person set its autonomy', () => {
    for (const trustLevel of ['supervised', 'delegated', 'autonomous'] as const) {
      const decision = decide(
        { tool: writeFile, args: { path: '/tmp/a' }, meta: sure },
        policyContext({ now: NOW, trustLevel }),
      );
      expect(decision.kind).toBe('require_approval');
    }
  });

  it('lets the person set one tool to auto, and names that setting as the rule', () => {
    const decision = decide(
      { tool: { ...writeFile, autonomy: 'auto' }, args: { path: '/tmp/a' }, meta: sure },
      policyContext({ now: NOW, trustLevel: 'autonomous' }),
    );
    expect(decision).toMatchObject({ kind: 'allow', rule: 'autonomy:fs__write_file' });
    // Supervised still asks, whatever the tool's own setting.
    expect(
      decide(
        { tool: { ...writeFile, autonomy: 'auto' }, args: { path: '/tmp/a' }, meta: sure },
        policyContext({ now: NOW, trustLevel: 'supervised' }),
      ).kind,
    ).toBe('require_approval');
  });

  it('applies an argument rule written for the tool, or for every tool of its server as server__*', () => {
    for (const tool of ['fs__write_file', 'fs__*']) {
      const context = policyContext({ now: NOW, trustLevel: 'delegated', rules: [rule(tool, '/tmp/*')] });
      expect(decide({ tool: writeFile, args: { path: '/tmp/a' }, meta: sure }, context).kind).toBe('allow');
      expect(decide({ tool: writeFile, args: { path: '/etc/passwd' }, meta: sure }, context).kind).toBe(
        'require_approval',
      );
    }
    // Another server's wildcard does not reach this one.
    const other = policyContext({ now: NOW, trustLevel: 'delegated', rules: [rule('f__*', '/tmp/*')] });
    expect(decide({ tool: writeFile, args: { path: '/tmp/a' }, meta: sure }, other).kind).toBe(
      'require_approval',
    );
  });
});
