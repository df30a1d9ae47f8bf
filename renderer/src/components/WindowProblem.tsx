import { saveLastThreadId } from '../features/chat/last-thread';
import { joinHash, routeFromHash, splitHash } from '../route';

/**
 * What the window shows when a screen failed to draw (see RenderGuard), instead of a blank page. Runs live in
 * the host, not the window, so nothing is lost; opening on a new conversation gets past one that cannot be shown.
 */
export function WindowProblem() {
  // Only the main window has conversations: the approval window, the quick prompt and the audit viewer reload.
  const isMainWindow = routeFromHash(window.location.hash).kind === 'workspace';
  const startOver = (): void => {
    saveLastThreadId(null);
    window.location.hash = joinHash('', splitHash(window.location.hash).params);
    window.location.reload();
  };
  return (
    <main className="window-problem" role="alert">
      <p>
        This window ran into a problem and could not show this screen. Nothing is lost: your conversations,
        and any run still working, are kept by Deputy.
      </p>
      <p className="window-problem__actions">
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload the window
        </button>
        {isMainWindow && (
          <button type="button" className="button" onClick={startOver}>
            Open a new conversation
          </button>
        )}
      </p>
    </main>
  );
}
