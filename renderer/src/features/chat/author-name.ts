import { createContext } from 'react';

/**
 * Who an answer in the timeline is from: Deputy, or inside a delegated child run's row the agent that wrote it
 * (by the name its row shows), so that the child's words are not taken for Deputy's own answer.
 */
export const AuthorName = createContext('Deputy');
