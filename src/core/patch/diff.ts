/**
 * Diff parsing: file sections and their git extended headers are read here
 * (renames, copies, modes, blob ids, binary, quoted paths, CVS `Index:`);
 * the hunk bodies go through parse-diff. Hunk line counts are honoured but
 * never trusted: a truncated hunk just ends.
 */
import parseDiffLib from 'parse-diff';
import type { DiffFile, Hunk, HunkLine } from '../model';

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Decodes a git C-style quoted path (`"a/f\303\266o\tbar"`), quotes included. */
export function unquotePath(s: string): string {
  if (!s.startsWith('"')) return s;
  const bytes: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === '"') break;
    if (c === '\\' && i + 1 < s.length) {
      const n = s[i + 1];
      if (/[0-3]/.test(n) && /^[0-7]{3}$/.test(s.slice(i + 1, i + 4))) {
        bytes.push(parseInt(s.slice(i + 1, i + 4), 8));
        i += 3;
      } else {
        bytes.push(simple[n] ?? n.charCodeAt(0));
        i += 1;
      }
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Splits `"x" "y"`, `a/x b/x`, `x x` (no prefix) into the two raw paths. */
function splitGitHeaderPaths(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(rest);
    if (!end) return null;
    return [end[0], rest.slice(end[0].length).trim()];
  }
  const q = rest.indexOf(' "');
  if (q > 0) return [rest.slice(0, q), rest.slice(q + 1)];
  // Same path on both sides (the usual case): split in the middle.
  if (rest.length % 2 === 1) {
    const half = (rest.length - 1) / 2;
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (rest[half] === ' ' && a.replace(/^a\//, '') === b.replace(/^b\//, '')) return [a, b];
  }
  const bp = rest.indexOf(' b/');
  if (rest.startsWith('a/') && bp > 0) return [rest.slice(0, bp), rest.slice(bp + 1)];
  const sp = rest.indexOf(' ');
  return sp > 0 ? [rest.slice(0, sp), rest.slice(sp + 1)] : null;
}

/** A `---`/`+++` path: unquoted, timestamp removed, `/dev/null` → null. */
function unifiedPath(raw: string, prefix: 'a/' | 'b/'): string | null {
  let p = raw.startsWith('"') ? unquotePath(raw) : raw.split('\t')[0].trimEnd();
  if (!raw.startsWith('"')) {
    // CVS / diff -u timestamps after a run of spaces: `path  2011-12-05 20:15:49 ...`.
    p = p.replace(/\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [+-]\d{4})?$/, '');
  }
  if (p === '/dev/null') return null;
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

interface Section {
  lines: string[];
  hunks: string[][];
}

/** Cuts the text into per-file sections, each with its header lines and its hunks' lines. */
function splitSections(lines: string[]): Section[] {
  const out: Section[] = [];
  let cur: Section | null = null;
  const open = (): Section => {
    cur = { lines: [], hunks: [] };
    out.push(cur);
    return cur;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const h = HUNK_HEADER.exec(line);
    if (h) {
      const sec: Section = cur ?? open();
      const hunk = [line];
      let oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      let newLeft = h[4] === undefined ? 1 : Number(h[4]);
      i++;
      while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
        const l = lines[i];
        const c = l[0];
        if (c === ' ' || l === '') { oldLeft--; newLeft--; }
        else if (c === '-') oldLeft--;
        else if (c === '+') newLeft--;
        else if (c !== '\\') break;
        hunk.push(l);
        i++;
      }
      if (i < lines.length && lines[i].startsWith('\\ ')) hunk.push(lines[i++]);
      sec.hunks.push(hunk);
      continue;
    }
    const inCvsHeader = cur !== null && (cur as Section).hunks.length === 0 && (cur as Section).lines[0].startsWith('Index: ');
    const startsFile =
      (line.startsWith('diff ') && !inCvsHeader) ||
      line.startsWith('Index: ') ||
      (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ') &&
        (cur === null || (cur as Section).hunks.length > 0 || (cur as Section).lines.some((l) => l.startsWith('--- '))));
    if (startsFile) open().lines.push(line);
    else if (cur) (cur as Section).lines.push(line);
    i++;
  }
  return out;
}

/** Runs one hunk through parse-diff and turns its changes into numbered HunkLines. */
function parseHunk(hunkLines: string[]): Hunk | null {
  const m = HUNK_HEADER.exec(hunkLines[0]);
  if (!m) return null;
  const body: string[] = [];
  const noNl = new Set<number>();
  for (const l of hunkLines.slice(1)) {
    if (l.startsWith('\\')) {
      if (body.length) noNl.add(body.length - 1);
    } else body.push(l);
  }
  let changes: parseDiffLib.Change[] = [];
  try {
    const parsed = parseDiffLib([hunkLines[0], ...body].join('\n'));
    changes = parsed.flatMap((f) => f.chunks.flatMap((c) => c.changes));
  } catch {
    changes = [];
  }
  const lines: HunkLine[] = changes.slice(0, body.length).map((ch, k) => {
    const text = ch.content.slice(1);
    const hl: HunkLine =
      ch.type === 'add' ? { type: 'add', text, oldLine: null, newLine: ch.ln }
      : ch.type === 'del' ? { type: 'del', text, oldLine: ch.ln, newLine: null }
      : { type: 'context', text, oldLine: ch.ln1, newLine: ch.ln2 };
    if (noNl.has(k)) hl.noNewlineAtEnd = true;
    return hl;
  });
  return {
    header: hunkLines[0],
    oldStart: Number(m[1]),
    oldLines: m[2] === undefined ? 1 : Number(m[2]),
    newStart: Number(m[3]),
    newLines: m[4] === undefined ? 1 : Number(m[4]),
    lines,
  };
}

function parseSection(sec: Section, withHunks: boolean): DiffFile {
  const f: DiffFile = {
    oldPath: null, newPath: null, path: '', isNew: false, isDeleted: false, isRename: false,
    isBinary: false, oldMode: null, newMode: null, oldBlob: null, newBlob: null, hunks: [],
  };
  let oldP: string | null | undefined;
  let newP: string | null | undefined;
  let m: RegExpExecArray | null;
  for (const line of sec.lines) {
    if (line.startsWith('diff --git ')) {
      const pair = splitGitHeaderPaths(line.slice('diff --git '.length));
      if (pair) {
        const [a, b] = pair.map(unquotePath);
        oldP = a.startsWith('a/') && b.startsWith('b/') ? a.slice(2) : a;
        newP = a.startsWith('a/') && b.startsWith('b/') ? b.slice(2) : b;
      }
    } else if ((m = /^Index: (.+)$/.exec(line))) {
      oldP = newP = m[1].trim();
    } else if ((m = /^new file mode (\d+)/.exec(line))) {
      f.isNew = true;
      f.newMode = m[1];
    } else if ((m = /^deleted file mode (\d+)/.exec(line))) {
      f.isDeleted = true;
      f.oldMode = m[1];
    } else if ((m = /^old mode (\d+)/.exec(line))) f.oldMode = m[1];
    else if ((m = /^new mode (\d+)/.exec(line))) f.newMode = m[1];
    else if ((m = /^(rename|copy) (from|to|old|new) (.+)$/.exec(line))) {
      if (m[1] === 'rename') f.isRename = true;
      if (m[2] === 'from' || m[2] === 'old') oldP = unquotePath(m[3]);
      else newP = unquotePath(m[3]);
    } else if ((m = /^index ([0-9a-fA-F]+)\.\.([0-9a-fA-F]+)(?: (\d+))?/.exec(line))) {
      f.oldBlob = m[1];
      f.newBlob = m[2];
      if (m[3]) f.oldMode = f.newMode = m[3];
    } else if (line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)) {
      f.isBinary = true;
    } else if (line.startsWith('--- ')) {
      oldP = unifiedPath(line.slice(4), 'a/');
    } else if (line.startsWith('+++ ')) {
      newP = unifiedPath(line.slice(4), 'b/');
    }
  }
  if (oldP === null && !f.isNew && newP) f.isNew = true;
  if (newP === null && !f.isDeleted && oldP) f.isDeleted = true;
  f.oldPath = f.isNew ? null : (oldP ?? newP ?? null);
  f.newPath = f.isDeleted ? null : (newP ?? oldP ?? null);
  f.path = f.newPath ?? f.oldPath ?? '';
  if (withHunks) f.hunks = sec.hunks.map(parseHunk).filter((h): h is Hunk => h !== null);
  return f;
}

export interface ParseDiffOptions {
  /** Parse the hunks (default); without them, only the files and their headers (for a thread index). */
  hunks?: boolean;
}

/** Parses the diff part of a patch into files, hunks and numbered lines. */
export function parseDiff(text: string, opts: ParseDiffOptions = {}): DiffFile[] {
  const withHunks = opts.hunks !== false;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return splitSections(lines)
    .filter((s) => s.hunks.length > 0 || s.lines.some((l) => /^(diff |Index: |--- )/.test(l)))
    .map((sec) => parseSection(sec, withHunks));
}
