import { useEffect, useState } from 'react';
import type { ConnectionStatus } from '../../api/ws-client';
import { useAudit, useStores } from '../../stores';
import { ConnectionNote } from '../connection/ConnectionNote';
import { useAfterReconnect } from '../connection/use-read-again';
import { AuditDetail } from './AuditDetail';
import { AuditFilterBar } from './AuditFilterBar';
import { AuditTable } from './AuditTable';
import { exportFileType, saveExport } from '../../export-file';
import './audit.css';

/** The local audit viewer: everything Deputy did, searchable, with the detail of one entry beside it. */
export function AuditScreen({
  entryId,
  status,
}: {
  entryId: string | null;
  status: ConnectionStatus | 'ipc';
}) {
  const stores = useStores();
  const chain = useAudit((state) => state.chain);
  const isChecking = useAudit((state) => state.isChecking);
  const checkIntegrity = useAudit((state) => state.checkIntegrity);
  const listError = useAudit((state) => state.listError);
  const count = useAudit((state) => state.entries.length);
  const hasMore = useAudit((state) => state.nextCursor !== null);
  // Until an entry is chosen the detail has nothing to show: the table takes the whole width.
  const isDetailShown = useAudit((state) => state.selectedId !== null || state.detailError !== null);

  useEffect(() => {
    const audit = stores.audit.getState();
    void audit.reload();
    if (entryId) void audit.select(entryId);
  }, [stores, entryId]);

  // The viewer follows no stream, so nothing tells it what was done while its socket was down, and a request the
  // drop cut off is lost: once the socket is back, the page and the open entry are read again.
  useAfterReconnect(status, () => void stores.audit.getState().readAgain());

  // No event says a conversation was renamed, in the chat's window or in this tab while it showed the chat: the
  // chip's title is looked up again when the viewer shows and each time it comes back into view.
  useEffect(() => {
    const audit = stores.audit;
    const lookUp = () => {
      if (document.visibilityState === 'visible') void audit.getState().refreshScopeTitle();
    };
    lookUp();
    window.addEventListener('focus', lookUp);
    document.addEventListener('visibilitychange', lookUp);
    return () => {
      window.removeEventListener('focus', lookUp);
      document.removeEventListener('visibilitychange', lookUp);
    };
  }, [stores]);

  const [exported, setExported] = useState<string | null>(null);
  const save = async (format: 'jsonl' | 'csv') => {
    setExported('Exporting…');
    try {
      const pages = stores.audit.getState().exportPages(format);
      const bytes = await saveExport(pages, exportFileType('deputy-audit', format));
      setExported(bytes === null ? null : `Exported ${Math.max(1, Math.round(bytes / 1024))} KB.`);
    } catch (error) {
      setExported(`The export stopped: ${error instanceof Error ? error.message : 'something went wrong'}.`);
    }
  };

  return (
    <div className="audit-screen">
      <header className="audit-screen__header">
        <h1 className="app__title">Audit trail</h1>
        <a
          className="audit-screen__back"
          href="#/"
          data-testid="audit-back"
          onClick={(event) => {
            // In the desktop app the viewer has a window of its own: Deputy's comes forward, this one stays.
            const shell = window.deputyShell;
            if (!shell) return;
            event.preventDefault();
            void shell.showMain();
          }}
        >
          Back to Deputy
        </a>
        <div className="audit-screen__actions">
          <button
            type="button"
            className="button"
            data-testid="audit-export-jsonl"
            onClick={() => void save('jsonl')}
          >
            Export JSON lines
          </button>
          <button type="button" className="button" onClick={() => void save('csv')}>
            Export CSV
          </button>
          <button
            type="button"
            className="button"
            data-testid="audit-check"
            disabled={isChecking}
            onClick={() => void checkIntegrity()}
          >
            {isChecking ? 'Checking…' : 'Check integrity'}
          </button>
        </div>
        <ConnectionNote status={status} className="audit-screen__connection status-line" />
        <p className="audit-screen__chain status-line" role="status" data-testid="audit-exported">
          {exported}
        </p>
        <p className="audit-screen__chain status-line" role="status" data-testid="audit-chain">
          {chain &&
            (chain.ok
              ? `Intact: ${chain.entries} entries, ${chain.links} links, none changed.`
              : `Broken: ${chain.mismatch?.reason ?? ''} (entry ${chain.mismatch?.entryId ?? '?'}).`)}
        </p>
      </header>
      <AuditFilterBar />
      <p className="audit-screen__count" aria-live="polite">
        {listError ??
          `${count}${hasMore ? '+' : ''} entries${isDetailShown || count === 0 ? '' : '. Choose one to see what was done, why, and by whose leave.'}`}
      </p>
      <main className={`audit-screen__main${isDetailShown ? ' audit-screen__main--detail' : ''}`}>
        <AuditTable />
        {isDetailShown && (
          <section className="audit-screen__detail" aria-label="Entry detail">
            <AuditDetail />
          </section>
        )}
      </main>
    </div>
  );
}
