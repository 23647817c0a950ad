/**
 * Turns what `git apply` printed on failure into which file, which hunk and why.
 */
import type { DiffFile } from '../model';

export interface ApplyFailure {
  /** The file git complained about (or the patch's first file when git named none). */
  file: string;
  /** 1-based hunk number within that file, when known. */
  hunk: number | null;
  /** One sentence. */
  reason: string;
}

function hunkAt(files: DiffFile[], file: string, oldLine: number): { n: number; header: string } | null {
  const f = files.find((x) => x.oldPath === file || x.newPath === file || x.path === file);
  if (!f) return null;
  let idx = f.hunks.findIndex((h) => h.oldStart === oldLine);
  // git reports the hunk's first line, which is oldStart, or oldStart+... for a zero-length pre-image.
  if (idx < 0) idx = f.hunks.findIndex((h) => Math.max(h.oldStart, 1) === Math.max(oldLine, 1));
  return idx < 0 ? null : { n: idx + 1, header: f.hunks[idx].header.replace(/^(@@[^@]*@@).*$/, '$1') };
}

/** Reads git apply's stderr (C locale) into a failure description. */
export function parseApplyError(stderr: string, files: DiffFile[]): ApplyFailure {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const fallbackFile = files[0]?.path ?? '(unknown file)';
  for (const l of lines) {
    let m = /^error: patch failed: (.+):(\d+)$/.exec(l);
    if (m) {
      const h = hunkAt(files, m[1], Number(m[2]));
      const which = h ? `hunk #${h.n} (${h.header})` : `the hunk at line ${m[2]}`;
      return {
        file: m[1],
        hunk: h?.n ?? null,
        reason: `${which} does not apply: the lines it expects around line ${m[2]} differ in the tree`,
      };
    }
    m = /^error: (.+): already exists in (?:index|working directory)$/.exec(l);
    if (m) return { file: m[1], hunk: null, reason: 'the patch creates this file but it already exists' };
    m = /^error: (.+): does not exist in index$/.exec(l);
    if (m) return { file: m[1], hunk: null, reason: 'the patch changes this file but the tree does not have it' };
    m = /^error: cannot apply binary patch to '(.+)' without full index line$/.exec(l);
    if (m) {
      return {
        file: m[1],
        hunk: null,
        reason: 'binary change without the full blob ids git needs (the sender did not use --binary)',
      };
    }
    m = /^error: the patch applies to '(.+)' \(([0-9a-f]+)\), which does not match the current contents\.$/.exec(l);
    if (m) return { file: m[1], hunk: null, reason: `binary change made against blob ${m[2]}, which the tree does not hold` };
    m = /^error: (.+): patch does not apply$/.exec(l);
    if (m) return { file: m[1], hunk: null, reason: 'the patch does not apply to this file' };
    m = /^error: (?:corrupt patch|patch fragment without header|git diff header lacks filename information.*) at line (\d+)/.exec(l);
    if (m) return { file: fallbackFile, hunk: null, reason: `the diff is corrupt at line ${m[1]} of the patch text` };
    m = /^error: (.+): (wrong type|has type \d+, expected \d+)$/.exec(l);
    if (m) return { file: m[1], hunk: null, reason: `the file has a different type in the tree (${m[2]})` };
    m = /^error: invalid path '(.+)'$/.exec(l);
    if (m) return { file: m[1], hunk: null, reason: 'git refuses this path' };
    m = /^(?:error|fatal): (.+)$/.exec(l);
    if (m && !/^(?:U |Applied patch|Falling back)/.test(m[1])) {
      return { file: fallbackFile, hunk: null, reason: m[1] };
    }
  }
  const u = lines.find((l) => l.startsWith('U '));
  if (u) return { file: u.slice(2), hunk: null, reason: 'the three-way merge left conflicts in this file' };
  return { file: fallbackFile, hunk: null, reason: lines[0] ?? 'git apply failed without saying why' };
}
