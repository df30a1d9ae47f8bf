import { lazy, Suspense, type ReactNode } from 'react';

/**
 * Screens the main window does not need to draw its first frame: each is its own chunk, fetched when first
 * shown, so the chat opens with less JavaScript.
 */
export const SettingsPanel = lazy(() =>
  import('./features/settings/SettingsPanel').then((module) => ({ default: module.SettingsPanel })),
);
export const AuditScreen = lazy(() =>
  import('./features/audit/AuditScreen').then((module) => ({ default: module.AuditScreen })),
);
export const ApprovalWindow = lazy(() =>
  import('./features/approvals/ApprovalWindow').then((module) => ({ default: module.ApprovalWindow })),
);
export const QuickPrompt = lazy(() =>
  import('./features/quick/QuickPrompt').then((module) => ({ default: module.QuickPrompt })),
);

export function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="splash" role="status">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
