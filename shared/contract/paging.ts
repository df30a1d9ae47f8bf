import { z } from 'zod';

/** The `nextCursor` a newest-first list handed out (a row's position); anything else is refused, not read as page one. */
export const PageCursor = z.string().regex(/^\d{1,16}$/, 'not a cursor');
