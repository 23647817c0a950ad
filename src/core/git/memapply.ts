/**
 * The fast path: applying a text patch in memory, accepted only when git's own
 * blob ids prove the result — every file's pre-image is the blob its `index`
 * line names, and every post-image hashes to the blob the line names after
 * `..`. Anything else (binary, copies, mode surprises, offsets, fuzz, a base
 * that differs from the sender's, no index line) returns null and goes
 * through `git apply`, which also explains failures.
 */
import type { DiffFile, Hunk, Patch } from '../model';
import type { Entry } from './tree';
import { hashObject } from './tree';

export interface MemResult {
  changes: Map<string, Entry | null>;
  /** New blob contents by id. */
  blobs: Map<string, Buffer>;
}

function splitLines(text: string): { lines: string[]; finalNewline: boolean } {
  if (text === '') return { lines: [], finalNewline: true };
  const lines = text.split('\n');
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

/** Applies the hunks at exactly their stated positions; null when any line differs. */
export function applyHunks(text: string, hunks: Hunk[]): string | null {
  const { lines, finalNewline } = splitLines(text);
  const out: string[] = [];
  let cursor = 0;
  let noNewline = false;
  for (const h of hunks) {
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    if (start < cursor || start > lines.length) return null;
    while (cursor < start) out.push(lines[cursor++]);
    let consumed = 0;
    noNewline = false;
    for (const l of h.lines) {
      if (l.type === 'add') {
        out.push(l.text);
        noNewline = !!l.noNewlineAtEnd;
        continue;
      }
      if (lines[cursor] !== l.text) return null;
      if (l.noNewlineAtEnd && (cursor !== lines.length - 1 || finalNewline)) return null;
      cursor++;
      consumed++;
      if (l.type === 'context') {
        out.push(l.text);
        noNewline = !!l.noNewlineAtEnd;
      }
    }
    if (consumed !== h.oldLines) return null;
  }
  const tail = cursor < lines.length;
  while (cursor < lines.length) out.push(lines[cursor++]);
  const endsBare = tail ? !finalNewline : noNewline;
  if (out.length === 0) return '';
  return out.join('\n') + (endsBare ? '' : '\n');
}

function oneFile(
  f: DiffFile,
  get: (p: string) => Entry | null,
  content: (oid: string) => Buffer | undefined,
  algo: 'sha1' | 'sha256',
  out: MemResult,
): boolean {
  if (f.isBinary || (!f.newBlob && !f.isDeleted)) return false;
  const src = f.isNew ? null : f.oldPath;
  if (!f.isNew && !src) return false;
  if (f.oldPath && f.newPath && f.oldPath !== f.newPath && !f.isRename) return false; // a copy
  const cur = src ? get(src) : null;
  if (src && (!cur || !f.oldBlob || !cur.oid.startsWith(f.oldBlob.toLowerCase()))) return false;
  if (!src && f.newPath && get(f.newPath)) return false; // creating a file that exists: let git say so
  if (cur && f.oldMode && f.oldMode !== cur.mode) return false;
  if (cur && !/^100(644|755)$/.test(cur.mode)) return false;
  const before = cur ? content(cur.oid) : Buffer.alloc(0);
  if (!before) return false;
  const text = before.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(before)) return false;
  const after = f.hunks.length ? applyHunks(text, f.hunks) : text;
  if (after === null) return false;
  if (f.isDeleted) {
    if (after !== '' || !src) return false;
    out.changes.set(src, null);
    return true;
  }
  const body = Buffer.from(after, 'utf8');
  const oid = hashObject(algo, 'blob', body);
  if (!oid.startsWith(f.newBlob!.toLowerCase())) return false;
  if (src && src !== f.newPath) out.changes.set(src, null);
  out.changes.set(f.newPath!, { mode: f.newMode ?? cur?.mode ?? '100644', oid });
  out.blobs.set(oid, body);
  return true;
}

/** The changes one patch makes, computed in memory and proven by blob ids; null to use git apply. */
export function applyInMemory(
  patch: Patch,
  get: (p: string) => Entry | null,
  content: (oid: string) => Buffer | undefined,
  algo: 'sha1' | 'sha256',
): MemResult | null {
  const out: MemResult = { changes: new Map(), blobs: new Map() };
  if (patch.files.length === 0) return null;
  const touched = new Set<string>();
  for (const f of patch.files) {
    // A path named by two sections of one patch: let git sort it out.
    const paths = new Set([f.oldPath, f.newPath].filter((p): p is string => p !== null));
    for (const p of paths) if (touched.has(p)) return null;
    for (const p of paths) touched.add(p);
    if (!oneFile(f, get, content, algo, out)) return null;
  }
  return out;
}
