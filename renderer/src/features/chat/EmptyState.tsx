import { NO_GEMINI_KEY_MESSAGE } from '../../../../shared/no-gemini-key';
import { useSettings } from '../../stores';
import { useIsGeminiConfigured } from '../connections/use-gemini-configured';

const EXAMPLE = 'Add a task to buy milk tomorrow';

export function EmptyState({
  onTryExample,
  onOpenConnections,
}: {
  onTryExample: (text: string) => void;
  onOpenConnections: () => void;
}) {
  // A key pasted in Settings → Connections hides the hint at once.
  const isGeminiConfigured = useIsGeminiConfigured();
  const userName = useSettings((state) => state.settings?.userName);

  return (
    <section className="empty-state" data-testid="empty-state" aria-labelledby="empty-state-title">
      <h2 id="empty-state-title">
        {userName ? `Hello, ${userName}.` : 'Hello.'} What can Deputy do for you?
      </h2>
      {isGeminiConfigured === false && (
        <div className="empty-state__setup" data-testid="gemini-key-hint" role="note">
          <h3>First, give Deputy a Gemini API key</h3>
          <ol>
            <li>
              Get a key from Google AI Studio (<code>aistudio.google.com</code>).
            </li>
            <li>{NO_GEMINI_KEY_MESSAGE}</li>
            <li>This message disappears once the key is saved.</li>
          </ol>
          <button type="button" className="button" data-testid="open-connections" onClick={onOpenConnections}>
            Open Settings → Connections
          </button>
        </div>
      )}
      <p className="empty-state__hint">
        Try:{' '}
        <button
          type="button"
          className="link-button"
          data-testid="example-prompt"
          onClick={() => onTryExample(EXAMPLE)}
        >
          “{EXAMPLE.toLowerCase()}”
        </button>
      </p>
    </section>
  );
}
