import { useEffect } from 'react';
import { useAudit, useStores } from '../../stores';
import { AuditDetail } from './AuditDetail';
import { AuditFilterBar } from './AuditFilterBar';
import { AuditTable } from './AuditTable';
import './audit.css';

/** Saves text as a file through the browser's download, the same in Electron and in a browser tab. */
function download(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** The local audit viewer: everything Deputy did, searchable, with the detail of one entry beside it. */
export function AuditScreen({ entryId }: { entryId: string | null }) {
  const stores = useStores();
  const chain = useAudit((state) => state.chain);
  const isChecking = useAudit((state) => state.isChecking);
  const checkIntegrity = useAudit((state) => state.checkIntegrity);
  const exportText = useAudit((state) => state.exportText);
  const listError = useAudit((state) => state.listError);
  const count = useAudit((state) => state.entries.length);
  const hasMore = useAudit((state) => state.nextCursor !== null);

  useEffect(() => {
    const audit = stores.audit.getState();
    void audit.reload();
    if (entryId) void audit.select(entryId);
  }, [stores, entryId]);

  const save = async (format: 'jsonl' | 'csv') => {
    const text = await exportText(format);
    if (text !== null)
      download(text, `deputy-audit.${format}`, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
  };

  return (
    <div className="audit-screen">
      <header className="audit-screen__header">
        <h1 className="app__title">Audit trail</h1>
        <a className="audit-screen__back" href="#/">
          Back to Deputy
        </a>
        <div className="audit-screen__actions">
          <button type="button" className="button" onClick={() => void save('jsonl')}>
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
        <p className="audit-screen__chain" role="status" data-testid="audit-chain">
          {chain &&
            (chain.ok
              ? `Intact: ${chain.entries} entries, ${chain.links} links, none changed.`
              : `Broken: ${chain.mismatch?.reason ?? ''} (entry ${chain.mismatch?.entryId ?? '?'}).`)}
        </p>
      </header>
      <AuditFilterBar />
      <p className="audit-screen__count" aria-live="polite">
        {listError ?? `${count}${hasMore ? '+' : ''} entries`}
      </p>
      <main className="audit-screen__main">
        <AuditTable />
        <section className="audit-screen__detail" aria-label="Entry detail">
          <AuditDetail />
        </section>
      </main>
    </div>
  );
}
