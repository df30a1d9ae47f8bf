import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The part of a V8 `.cpuprofile` (Node's inspector, Chromium's Profiler domain) the summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Where a profile's time went: the functions with the most self time, heaviest first, in ms. */
export function topSelfTime(profile: CpuProfile, count = 12): { where: string; ms: number }[] {
  const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((nodeId, index) => {
    const frame = frameOf.get(nodeId);
    if (!frame) return;
    const file = frame.url.split('/').slice(-2).join('/');
    const where = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    totals.set(where, (totals.get(where) ?? 0) + (deltas[index] ?? 0) / 1000);
  });
  return [...totals]
    .map(([where, ms]) => ({ where, ms }))
    .filter(({ where }) => !where.startsWith('(idle)') && !where.startsWith('(program)'))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

/** Writes the profile into `dir` (to open in Chrome's DevTools) and prints its heaviest functions. */
export function reportProfile(dir: string, name: string, profile: CpuProfile): void {
  const path = join(dir, `${name}.cpuprofile`);
  writeFileSync(path, JSON.stringify(profile));
  console.log(`${name}: profile written to ${path}; most self time:`);
  for (const { where, ms } of topSelfTime(profile))
    console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${where}`);
}
