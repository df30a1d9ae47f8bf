import type { AuditDesk } from '../audit-desk';
import type { HandlersFor } from './handlers';

type AuditChannel =
  | 'audit.list'
  | 'audit.get'
  | 'audit.assumptions'
  | 'audit.verifyAssumption'
  | 'audit.undo'
  | 'audit.export'
  | 'audit.verifyChain'
  | 'audit.decisions'
  | 'audit.toolInvocations';

/** The audit domain: the trail, its chain, its undo and spec 002's logs. */
export function auditChannels(audit: AuditDesk): HandlersFor<AuditChannel> {
  return {
    'audit.list': (input) => audit.list(input),
    'audit.get': (input) => audit.get(input),
    'audit.assumptions': (input) => audit.assumptions(input),
    'audit.verifyAssumption': (input) => audit.verifyAssumption(input),
    'audit.undo': (input) => audit.undo(input),
    'audit.export': (input) => audit.exportPage(input),
    'audit.verifyChain': () => audit.verifyChain(),
    'audit.decisions': (input) => audit.decisions(input),
    'audit.toolInvocations': (input) => audit.toolInvocations(input),
  };
}
