import { useSettings } from '../../stores';

const EXAMPLE = 'Add a task to buy milk tomorrow';

export function EmptyState({ onTryExample }: { onTryExample: (text: string) => void }) {
  const isGeminiConfigured = useSettings((state) => state.settings?.isGeminiConfigured);
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
            <li>
              Set it in the environment before starting Deputy, for example{' '}
              <code>GEMINI_API_KEY=your-key npm run serve</code> (or before starting the app).
            </li>
            <li>Restart Deputy. This message disappears once the key is found.</li>
          </ol>
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
