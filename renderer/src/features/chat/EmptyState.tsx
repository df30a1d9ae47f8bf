import { OpenConnectionsButton } from './OpenConnectionsButton';
import { useSettings } from '../../stores';
import { useIsGeminiConfigured } from '../connections/use-gemini-configured';

const EXAMPLE = 'Add a task to buy milk tomorrow';
/** Where Google AI Studio makes API keys. Opened in the person's browser (the shell's checked openExternal). */
const AI_STUDIO_KEYS = 'https://aistudio.google.com/apikey';

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
              Get a key at{' '}
              <a href={AI_STUDIO_KEYS} target="_blank" rel="noopener noreferrer" data-testid="ai-studio-link">
                aistudio.google.com
              </a>
              .
            </li>
            <li>Paste it in Settings → Connections (or set GEMINI_API_KEY before starting Deputy).</li>
          </ol>
          {/* The way there right after the step it is for, so that it is in view in a short window too (720 x 480). */}
          <OpenConnectionsButton testId="open-connections" onOpen={onOpenConnections} />
          <p className="empty-state__after">This note goes away once the key is saved.</p>
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
