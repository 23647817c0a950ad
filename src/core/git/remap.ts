/**
 * Carries a position (file, side, line) in patch k of a series to the file and
 * line at the tip of the series, through the hunks of the later patches. A
 * line a later patch removes (or a file it deletes) makes the position
 * outdated; the original position is kept.
 */
import type { DiffFile, Series } from '../model';

/** A line of a file's old side on its new side through one file diff; null when the diff removes it. */
export function mapOldToNew(file: DiffFile, line: number): number | null {
  let delta = 0;
  for (const h of [...file.hunks].sort((a, b) => a.oldStart - b.oldStart)) {
    const before = h.oldLines === 0 ? line <= h.oldStart : line < h.oldStart;
    if (before) return line + delta;
    if (line < h.oldStart + h.oldLines) {
      const hit = h.lines.find((l) => l.oldLine === line);
      return hit && hit.type === 'context' ? hit.newLine : null;
    }
    delta += h.newLines - h.oldLines;
  }
  return line + delta;
}

/** A line of a file's new side on its old side; null when the diff added it. */
export function mapNewToOld(file: DiffFile, line: number): number | null {
  let delta = 0;
  for (const h of [...file.hunks].sort((a, b) => a.newStart - b.newStart)) {
    const before = h.newLines === 0 ? line <= h.newStart : line < h.newStart;
    if (before) return line - delta;
    if (line < h.newStart + h.newLines) {
      const hit = h.lines.find((l) => l.newLine === line);
      return hit && hit.type === 'context' ? hit.oldLine : null;
    }
    delta += h.newLines - h.oldLines;
  }
  return line - delta;
}

/** Where a removed line of the old side sits on the new side: the line that now follows it. */
export function removedLineOnNewSide(file: DiffFile, oldLine: number): number | null {
  for (const h of file.hunks) {
    const i = h.lines.findIndex((l) => l.oldLine === oldLine);
    if (i < 0) continue;
    if (h.lines[i].newLine !== null) return h.lines[i].newLine;
    for (let j = i + 1; j < h.lines.length; j++) if (h.lines[j].newLine !== null) return h.lines[j].newLine;
    for (let j = i - 1; j >= 0; j--) if (h.lines[j].newLine !== null) return h.lines[j].newLine! + 1;
    return Math.max(1, h.newStart);
  }
  return mapOldToNew(file, oldLine);
}

export interface TipPosition {
  /** Path at the tip (the original path when outdated). */
  path: string;
  /** Line at the tip (the original line when outdated). */
  line: number;
  side: 'new' | 'old';
  outdated: boolean;
}

function findFile(files: DiffFile[], path: string): DiffFile | undefined {
  return files.find((f) => f.path === path) ?? files.find((f) => f.newPath === path || f.oldPath === path);
}

/**
 * Maps a position in patch `patchIndex` of the series (new side: that patch's
 * result; old side: what it removed) to the tip of the series.
 */
export function remapToTip(series: Series, patchIndex: number, file: string, side: 'new' | 'old', line: number): TipPosition {
  const outdated: TipPosition = { path: file, line, side, outdated: true };
  const own = findFile(series.patches[patchIndex]?.files ?? [], file);
  let path = own?.newPath ?? own?.path ?? file;
  let cur: number | null = line;
  if (side === 'old') {
    if (!own || own.isDeleted || own.newPath === null) return outdated;
    cur = removedLineOnNewSide(own, line);
  }
  for (let j = patchIndex + 1; j < series.patches.length && cur !== null; j++) {
    const f = series.patches[j].files.find((x) => x.oldPath === path);
    if (!f) continue;
    if (f.isDeleted || f.newPath === null) return outdated;
    cur = mapOldToNew(f, cur);
    path = f.newPath;
  }
  return cur === null ? outdated : { path, line: cur, side, outdated: false };
}
