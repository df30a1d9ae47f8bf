import { useId } from 'react';
import { whileBusy } from '../../components/FormParts';
import { saveExport } from '../../export-file';
import { useData, useStores } from '../../stores';

/**
 * Settings → Data: "Export tasks and memories", the task list and what Deputy remembers saved to a file the
 * person picks, as JSON lines. What it comes to is said in the panel's status line, as for conversations.
 */
export function ExportTasksAndMemories() {
  const { data: store } = useStores();
  const busy = useData((state) => state.busy);
  const headingId = useId();
  const noteId = useId();

  return (
    <section aria-labelledby={headingId} data-testid="export-tasks">
      <h3 id={headingId}>Export tasks and memories</h3>
      <p id={noteId} className="settings-form__note">
        Saves your task list and everything Deputy remembers about you to a file on this computer, as JSON
        lines: one task or memory per line, with its dates, for other programs to read. Keys and tokens Deputy
        recognises in them are replaced by “[redacted]”.
      </p>
      <button
        type="button"
        className="button"
        aria-describedby={noteId}
        {...whileBusy(busy !== null, () => void store.getState().exportTasksAndMemories(saveExport))}
        data-testid="export-tasks-start"
      >
        {busy === 'exportingTasks' ? 'Exporting…' : 'Export tasks and memories…'}
      </button>
    </section>
  );
}
