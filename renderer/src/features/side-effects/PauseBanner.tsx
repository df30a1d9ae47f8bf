import { useEffect } from 'react';
import { SWITCHED_OFF_NOTICE } from '../../../../shared/contract';
import { useSideEffects, useStores } from '../../stores';
import { focusComposerIfLost } from '../../focus';

/**
 * Shown across the top of the main window while side effects are paused (from the tray, here or over HTTP),
 * with the one button that ends it. Reads and answers go on; nothing is sent, changed or deleted.
 */
export function PauseBanner() {
  const { sideEffects } = useStores();
  const state = useSideEffects((store) => store.state);
  const isChanging = useSideEffects((store) => store.isChanging);
  const error = useSideEffects((store) => store.error);
  const setPaused = useSideEffects((store) => store.setPaused);

  useEffect(() => sideEffects.getState().connect(), [sideEffects]);

  if (state?.isDisabledByEnvironment) {
    return (
      <section className="pause-banner" aria-label="Side effects are off" data-testid="pause-banner">
        <p className="pause-banner__text" data-testid="pause-banner-text">
          {SWITCHED_OFF_NOTICE}
        </p>
      </section>
    );
  }
  if (!state?.isPaused) return null;
  return (
    <section className="pause-banner" aria-label="Side effects are paused" data-testid="pause-banner">
      <p className="pause-banner__text">
        <strong>All side effects are paused.</strong> Deputy reads and answers, but sends, changes and deletes
        nothing, and approvals wait, until you resume.
      </p>
      {error && (
        <p className="pause-banner__error" role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className="button button--primary"
        disabled={isChanging}
        onClick={() =>
          void setPaused(false).then(() => {
            // Resumed, the banner and its button go away: the keyboard goes on in the message box. Refused,
            // the banner stays with its error, and so does the focus.
            if (sideEffects.getState().state?.isPaused) return;
            focusComposerIfLost();
          })
        }
        data-testid="resume-side-effects"
      >
        {isChanging ? 'Resuming…' : 'Resume'}
      </button>
    </section>
  );
}
