/**
 * Mail is hostile: every path a diff names is checked before git sees it.
 * git apply has its own checks too; these make the refusal explicit and
 * name the file.
 */
import type { Patch } from '../model';
import { unquotePath } from '../patch/diff';

/** Why a diff path is refused, or null when it is a plain relative path inside the tree. */
export function unsafePathReason(p: string): string | null {
  if (p === '') return 'is empty';
  if (p.includes('\0')) return 'contains a NUL byte';
  if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\')) return 'is absolute';
  const parts = p.split(/[\\/]/);
  for (const part of parts) {
    if (part === '..') return 'leaves the tree (`..`)';
    if (part.toLowerCase() === '.git' || /^git~\d+$/i.test(part) || /^\.git[ .]+$/i.test(part)) {
      return 'points into the .git directory';
    }
  }
  return null;
}

/** Every path the raw diff text names in a header line, with the `a/`/`b/` prefix removed. */
function headerPaths(diffText: string): string[] {
  const out: string[] = [];
  const strip = (raw: string): string => {
    const p = raw.startsWith('"') ? unquotePath(raw) : raw.split('\t')[0].trimEnd();
    return p.replace(/^[ab]\//, '');
  };
  const lines = diffText.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A `---`/`+++` pair is a file header; a lone `--- x` is a removed line.
    const pair =
      (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) ||
      (line.startsWith('+++ ') && (lines[i - 1] ?? '').startsWith('--- '));
    let m = pair ? /^(?:---|\+\+\+) (.+)$/.exec(line) : null;
    if (m) {
      if (m[1] !== '/dev/null' && !m[1].startsWith('/dev/null\t')) out.push(strip(m[1]));
      continue;
    }
    m = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line);
    if (m) {
      out.push(m[1].startsWith('"') ? unquotePath(m[1]) : m[1]);
      continue;
    }
    m = /^diff --git (.+)$/.exec(line);
    if (m) {
      // Both halves; when they cannot be told apart, each space-separated word is checked.
      for (const w of m[1].match(/"(?:[^"\\]|\\.)*"|\S+/g) ?? []) out.push(strip(w));
    }
  }
  return out;
}

export interface UnsafePath {
  file: string;
  reason: string;
}

/** The first unsafe path in a patch (parsed files and raw header lines), or null. */
export function findUnsafePath(patch: Patch): UnsafePath | null {
  const paths: string[] = [];
  for (const f of patch.files) {
    if (f.oldPath !== null) paths.push(f.oldPath);
    if (f.newPath !== null) paths.push(f.newPath);
  }
  paths.push(...headerPaths(patch.diffText));
  for (const p of paths) {
    const reason = unsafePathReason(p);
    if (reason) return { file: p, reason };
  }
  return null;
}
