import { createContext } from 'react';

/**
 * Opens Settings → Connections at the Gemini card: in the main window's own Settings, or from the quick prompt
 * through the shell, which brings the main window forward there (in a browser, the quick prompt's tab goes there).
 * Null where no screen provides it.
 */
export const OpenConnections = createContext<(() => void) | null>(null);
