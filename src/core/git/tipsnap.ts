/**
 * Positions carried through the patches' hunk headers (remap.ts) are exact
 * when every patch applied where its hunks say. When git applied a hunk at an
 * offset (a base that differs from the sender's), the line sits a few lines
 * away: this checks each position against the file at the tip of the review
 * branch and moves it to the nearest line with the expected text.
 */
import type { Series } from '../model';
import { readNamed } from './objects';
import { removedLineOnNewSide, TipPosition } from './remap';
import type { Repo } from './repo';

/** How far from the computed line the expected text is looked for. */
const REACH = 400;

/**
 * The text around the commented line on the new side of patch k (for a removed
 * line: around the line now after it), as [offset from the line, text] pairs
 * taken from its hunk; null when the hunk does not show it.
 */
export function expectedText(series: Series, k: number, file: string, side: 'new' | 'old', line: number): Array<[number, string]> | null {
  const f = series.patches[k]?.files.find((x) => x.path === file || x.newPath === file || x.oldPath === file);
  if (!f) return null;
  const newLine = side === 'new' ? line : removedLineOnNewSide(f, line);
  if (newLine === null) return null;
  for (const h of f.hunks) {
    if (!h.lines.some((l) => l.newLine === newLine)) continue;
    const around = h.lines.filter((l) => l.newLine !== null && Math.abs(l.newLine - newLine) <= 3);
    return around.map((l) => [l.newLine! - newLine, l.text]);
  }
  return null;
}

/** The nearest line (1-based) where the expected text window matches, searching outwards; null when none is near. */
export function nearestLine(lines: string[], line: number, expect: Array<[number, string]>): number | null {
  const fits = (at: number): boolean => at >= 1 && expect.every(([d, t]) => lines[at - 1 + d] === t);
  for (let d = 0; d <= REACH; d++) {
    if (fits(line - d)) return line - d;
    if (d && fits(line + d)) return line + d;
  }
  return null;
}

export interface Snappable {
  at: TipPosition;
  expect: Array<[number, string]> | null;
}

/** Moves non-outdated positions onto the line with their expected text in the tip's files. */
export async function snapToTip(repo: Repo, tip: string, items: Snappable[]): Promise<void> {
  const paths = [...new Set(items.filter((i) => !i.at.outdated && i.expect !== null).map((i) => i.at.path))].filter((p) => !p.includes('\n'));
  if (paths.length === 0) return;
  const read = await readNamed(repo, paths.map((p) => `${tip}:${p}`));
  const lines = new Map<string, string[]>();
  paths.forEach((p, i) => {
    const r = read[i];
    if (r) lines.set(p, r[1].toString('utf8').split('\n'));
  });
  for (const item of items) {
    const file = lines.get(item.at.path);
    if (item.at.outdated || item.expect === null || !file) continue;
    const n = nearestLine(file, item.at.line, item.expect);
    if (n !== null) item.at.line = n;
  }
}
