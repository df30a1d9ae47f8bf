/**
 * What every surface says when no Gemini key is set: the chat, the empty state, the API's failure. One place
 * to add it (Settings → Connections), with the environment variable for the headless host.
 */
export const NO_GEMINI_KEY_MESSAGE =
  'Deputy needs a Gemini API key. Add one in Settings → Connections (or set GEMINI_API_KEY before starting Deputy).';
