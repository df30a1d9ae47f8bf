/** Where Electron's binary is, or null when it was never downloaded. */
export function electronBinary(): string | null;
