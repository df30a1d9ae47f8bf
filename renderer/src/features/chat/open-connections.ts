import { createContext } from 'react';

/**
 * Opens Settings → Connections at the Gemini card, where the main window has Settings; null elsewhere (the quick
 * prompt), where nothing offers it.
 */
export const OpenConnections = createContext<(() => void) | null>(null);
