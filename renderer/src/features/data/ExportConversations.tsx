import { useId, type Ref } from 'react';
import type { ThreadsExportFormat } from '../../../../shared/contract';
import { whileBusy } from '../../components/FormParts';
import { saveExport } from '../../export-file';
import { useData, useStores } from '../../stores';
import { EXPORT_FORMATS } from './data-words';

/**
 * Settings → Data: "Export conversations", every one of them saved to a file the person picks, as JSON lines or
 * Markdown. What it comes to (and how far it has come) is said in the panel's status line. `buttonRef`: the
 * button, which the question before deleting old conversations sends the keyboard to.
 */
export function ExportConversations({ buttonRef }: { buttonRef: Ref<HTMLButtonElement> }) {
  const { data: store } = useStores();
  const format = useData((state) => state.exportFormat);
  const busy = useData((state) => state.busy);
  const headingId = useId();
  const noteId = useId();

  return (
    <section aria-labelledby={headingId} data-testid="export-conversations">
      <h3 id={headingId}>Export conversations</h3>
      <p id={noteId} className="settings-form__note">
        Saves every conversation, oldest first, to a file on this computer. Keys and tokens Deputy recognises
        in them are replaced by “[redacted]”.
      </p>
      <fieldset className="data-panel__formats">
        <legend>Format</legend>
        {(Object.keys(EXPORT_FORMATS) as ThreadsExportFormat[]).map((value) => (
          <label key={value} className="radio-option">
            <input
              type="radio"
              name="export-format"
              value={value}
              checked={format === value}
              data-testid={`export-format-${value}`}
              onChange={() => store.getState().setExportFormat(value)}
            />
            <span>
              <strong>{EXPORT_FORMATS[value].label}</strong> — {EXPORT_FORMATS[value].explanation}
            </span>
          </label>
        ))}
      </fieldset>
      <button
        ref={buttonRef}
        type="button"
        className="button"
        aria-describedby={noteId}
        {...whileBusy(busy !== null, () => void store.getState().exportConversations(saveExport))}
        data-testid="export-start"
      >
        {busy === 'exporting' ? 'Exporting…' : 'Export conversations…'}
      </button>
    </section>
  );
}
