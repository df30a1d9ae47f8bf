/**
 * Fields a stored thing carries for its keeper (Deputy's store, Google's API) that change whenever anything is
 * written (a timestamp, a version tag) and say nothing about what the person sees. The undo's conflict check
 * passes over them, and the audit viewer's Before and after leaves them out.
 */
export const BOOKKEEPING_FIELDS: ReadonlySet<string> = new Set([
  'updatedAt',
  'updated',
  'etag',
  'sequence',
  'htmlLink',
]);
