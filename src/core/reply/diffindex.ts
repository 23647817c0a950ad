/**
 * An index of a patch's diff text, line by line, so a comment given in the
 * patch's coordinates (file, side, line) can be found and quoted with the
 * exact bytes the author sent. Line numbers come from the hunk headers.
 *
 * States: `between` (outside any file), `header` (after `diff --git` or a
 * `---`/`+++` pair, before the first hunk), `hunk` (counting the old and new
 * lines announced by the `@@` header; the hunk ends when both counts are
 * used up).
 */
export type DiffLineKind = 'file-header' | 'hunk-header' | 'context' | 'add' | 'del' | 'meta' | 'other';

export interface DiffLineRef {
  /** The line as it appears in the diff, with its prefix. */
  raw: string;
  kind: DiffLineKind;
  /** Index into `files`, -1 outside any file. */
  file: number;
  /** Index into `hunks`, -1 outside any hunk. */
  hunk: number;
  oldLine: number | null;
  newLine: number | null;
}

export interface DiffFileRef {
  oldPath: string | null;
  newPath: string | null;
  /** Index of the first header line (`diff --git` or `---`). */
  start: number;
}

export interface DiffHunkRef {
  file: number;
  /** Index of the `@@` line. */
  header: number;
}

export interface DiffIndex {
  lines: DiffLineRef[];
  files: DiffFileRef[];
  hunks: DiffHunkRef[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function stripPrefix(p: string): string | null {
  const path = p.replace(/\t.*$/, '').trim();
  if (path === '/dev/null') return null;
  return path.replace(/^[abciow]\//, '');
}

export function indexDiff(diffText: string): DiffIndex {
  const text = diffText.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  const lines: DiffLineRef[] = [];
  const files: DiffFileRef[] = [];
  const hunks: DiffHunkRef[] = [];
  let state: 'between' | 'header' | 'hunk' = 'between';
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const src = text.split('\n');
  const push = (raw: string, kind: DiffLineKind, o: number | null = null, n: number | null = null): void => {
    lines.push({ raw, kind, file: files.length - 1, hunk: state === 'hunk' ? hunks.length - 1 : -1, oldLine: o, newLine: n });
  };
  for (let i = 0; i < src.length; i++) {
    const raw = src[i];
    if (state === 'hunk' && (oldLeft > 0 || newLeft > 0)) {
      const c = raw[0];
      if (c === '+') {
        push(raw, 'add', null, newNo++);
        newLeft--;
        continue;
      }
      if (c === '-') {
        push(raw, 'del', oldNo++, null);
        oldLeft--;
        continue;
      }
      if (c === ' ' || raw === '') {
        push(raw, 'context', oldNo++, newNo++);
        oldLeft--;
        newLeft--;
        continue;
      }
      if (c === '\\') {
        push(raw, 'meta');
        continue;
      }
      state = 'between';
    }
    if (state === 'hunk' && raw.startsWith('\\')) {
      push(raw, 'meta');
      continue;
    }
    if (raw.startsWith('diff --git ') || raw.startsWith('Index: ')) {
      state = 'header';
      const m = /^diff --git (?:"?a\/)?(.+?)"? (?:"?b\/)?(.+?)"?$/.exec(raw);
      files.push({ oldPath: m ? m[1] : null, newPath: m ? m[2] : null, start: lines.length });
      push(raw, 'file-header');
      continue;
    }
    if (raw.startsWith('--- ') && src[i + 1]?.startsWith('+++ ') && state !== 'header') {
      state = 'header';
      files.push({ oldPath: null, newPath: null, start: lines.length });
    }
    if (state === 'header' && raw.startsWith('--- ')) {
      files[files.length - 1].oldPath = stripPrefix(raw.slice(4));
      push(raw, 'file-header');
      continue;
    }
    if (state === 'header' && raw.startsWith('+++ ')) {
      files[files.length - 1].newPath = stripPrefix(raw.slice(4));
      push(raw, 'file-header');
      continue;
    }
    const h = HUNK.exec(raw);
    if (h && files.length > 0) {
      state = 'hunk';
      hunks.push({ file: files.length - 1, header: lines.length });
      oldNo = Number(h[1]);
      oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      newNo = Number(h[3]);
      newLeft = h[4] === undefined ? 1 : Number(h[4]);
      push(raw, 'hunk-header');
      continue;
    }
    if (state === 'header') {
      const r = /^rename (from|to) (.+)$/.exec(raw);
      const f = files[files.length - 1];
      if (r && r[1] === 'from') f.oldPath = r[2];
      if (r && r[1] === 'to') f.newPath = r[2];
      push(raw, 'file-header');
      continue;
    }
    state = 'between';
    push(raw, 'other');
  }
  return { lines, files, hunks };
}

/** Index of the file a comment names: by new path, then old path; null when absent. */
export function findFile(index: DiffIndex, path: string): number | null {
  const p = path.replace(/^[ab]\//, '');
  const byNew = index.files.findIndex((f) => f.newPath === p);
  if (byNew >= 0) return byNew;
  const byOld = index.files.findIndex((f) => f.oldPath === p);
  return byOld >= 0 ? byOld : null;
}

/** The diff line a (file, side, line) anchor designates, or null. */
export function findLine(index: DiffIndex, file: number, side: 'new' | 'old', line: number): number | null {
  for (let i = 0; i < index.lines.length; i++) {
    const l = index.lines[i];
    if (l.file !== file) continue;
    if (side === 'new' && (l.kind === 'add' || l.kind === 'context') && l.newLine === line) return i;
    if (side === 'old' && (l.kind === 'del' || l.kind === 'context') && l.oldLine === line) return i;
  }
  return null;
}
