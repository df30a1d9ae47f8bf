import type { Approval, RunResponse } from '../../shared/contract';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import type { StoredApproval } from '../store/approvals-repo';
import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import type { SettingsService } from './settings';

/** What the approval desk is given: the store and the tools, and how a decided run goes on. */
export interface ApprovalDeskDeps {
  store: Store;
  registry: ToolRegistry;
  settings: SettingsService;
  now: () => Date;
  newId: () => string;
  runDeps: () => RunLoopDeps;
  specFor: (run: { id: string; threadId: string; model: string }, signal: AbortSignal) => RunSpec;
  /** Runs `work` as the run's active continuation, so it can be cancelled like any run. */
  track: (
    run: { id: string; threadId: string },
    work: (signal: AbortSignal) => Promise<RunResponse>,
  ) => Promise<RunResponse>;
  publish: (changed: Approval | null) => void;
  /** Undos from the audit trail wait for approval too; their approvals end in the undo, not in a run. */
  undos: HeldUndos;
}

export interface HeldUndos {
  isUndo(approval: StoredApproval): boolean;
  approve(approval: StoredApproval): Promise<RunResponse>;
  end(approval: StoredApproval, message: string): RunResponse;
}
