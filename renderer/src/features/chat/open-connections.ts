import { createContext } from 'react';

/**
 * Opens Settings → Connections at the Gemini card: in the main window's own Settings, or from the desktop quick
 * prompt through the shell, which brings the main window forward there. Null where nothing offers it (the quick
 * prompt with no shell).
 */
export const OpenConnections = createContext<(() => void) | null>(null);
