import { useConnections, useSettings } from '../../stores';

/**
 * Whether Deputy has a Gemini key; undefined until known. Once Settings → Connections has loaded, its live status
 * wins over the settings read at start: a key pasted there counts at once.
 */
export function useIsGeminiConfigured(): boolean | undefined {
  const fromSettings = useSettings((state) => state.settings?.isGeminiConfigured);
  const geminiState = useConnections(
    (state) => state.connections?.find((connection) => connection.name === 'gemini')?.state,
  );
  return geminiState ? geminiState === 'connected' : fromSettings;
}
