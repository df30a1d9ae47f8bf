/** A span of time in words: "5 minutes", "30 seconds". */
export function duration(ms: number): string {
  const [count, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.max(1, Math.round(ms / 1000)), 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
