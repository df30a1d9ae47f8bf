import { useEffect, useId, useRef, useState } from 'react';
import type { AuditAssumption } from '../../../../shared/contract';

const VERDICT_WORDS = (assumption: AuditAssumption): string => {
  if (assumption.verified === null) return 'Not checked yet';
  if (assumption.verified) return 'You confirmed it';
  return assumption.correction ? `You corrected it: ${assumption.correction}` : 'You said it was wrong';
};

/** One assumption with its evidence, and the person's verdict: confirm it, or correct it (and keep that). */
export function AssumptionItem(props: {
  assumption: AuditAssumption;
  canVerify: boolean;
  /** What became of the person's verdict beyond the verdict line's words: why it failed, or what was kept. */
  notice: { text: string; isError: boolean } | null;
  onVerify: (verdict: { verified: boolean; correction?: string; remember?: boolean }) => void;
}) {
  const { assumption } = props;
  const [isCorrecting, setIsCorrecting] = useState(false);
  const [correction, setCorrection] = useState('');
  const [remember, setRemember] = useState(true);
  const fieldId = useId();
  const correctButton = useRef<HTMLButtonElement>(null);
  // Focus goes where the person is working: into the box when it opens, back to "Correct…" when it closes.
  // Saved, "Correct…" goes away with the verdict: focus goes to the verdict line, which says what was kept.
  const wasCorrecting = useRef(false);
  const hasSaved = useRef(false);
  const verdictLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (isCorrecting) document.getElementById(fieldId)?.focus();
    else if (wasCorrecting.current) (hasSaved.current ? verdictLine.current : correctButton.current)?.focus();
    wasCorrecting.current = isCorrecting;
    hasSaved.current = false;
  }, [isCorrecting, fieldId]);
  return (
    <li className="audit-assumption" data-testid="audit-assumption">
      <p className="audit-assumption__statement">{assumption.statement}</p>
      <p className="audit-assumption__meta">
        {assumption.category}
        {assumption.confidence !== null && ` · ${Math.round(assumption.confidence * 100)}% sure`}
        {assumption.evidence.length > 0 && ` · because ${assumption.evidence.join('; ')}`}
      </p>
      {/* A status: Confirm changes these words where the person is looking, and they are said, not only seen. */}
      <p
        ref={verdictLine}
        tabIndex={-1}
        role="status"
        className="audit-assumption__verdict"
        data-testid="audit-assumption-verdict"
      >
        {VERDICT_WORDS(assumption)}
      </p>
      <p
        role="status"
        className={`audit-assumption__notice${props.notice?.isError ? ' audit-notice--error' : ''}`}
        data-testid="audit-assumption-notice"
      >
        {props.notice?.text}
      </p>
      {props.canVerify && !isCorrecting && (
        <div className="audit-assumption__actions">
          <button type="button" className="button" onClick={() => props.onVerify({ verified: true })}>
            Confirm
          </button>
          <button type="button" ref={correctButton} className="button" onClick={() => setIsCorrecting(true)}>
            Correct…
          </button>
        </div>
      )}
      {isCorrecting && (
        <form
          className="audit-assumption__correct"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            setIsCorrecting(false);
          }}
          onSubmit={(event) => {
            event.preventDefault();
            if (!correction.trim()) return;
            props.onVerify({ verified: false, correction: correction.trim(), remember });
            hasSaved.current = true;
            setIsCorrecting(false);
          }}
        >
          <label htmlFor={fieldId}>What is true instead</label>
          <textarea
            id={fieldId}
            value={correction}
            rows={2}
            onChange={(e) => setCorrection(e.target.value)}
          />
          <label className="audit-assumption__remember">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            Remember this for next time
          </label>
          <div className="audit-assumption__actions">
            <button type="submit" className="button button--primary">
              Save correction
            </button>
            <button type="button" className="button" onClick={() => setIsCorrecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
