/** What a redacted secret leaves in the text. */
export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: redacting every "abc" in a text would destroy it. */
export const MIN_SECRET_LENGTH = 8;
