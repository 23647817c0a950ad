/**
 * Test helpers: real git repositories in temporary folders, built so that the
 * real patch mails apply — each file holds the pre-image lines of every hunk
 * of the series at the line numbers the hunks give (carried back to the base
 * through the earlier patches), and filler lines elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DiffFile, Series } from '../../../src/core/model';
import { mapNewToOld } from '../../../src/core/git/remap';

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Base Author',
  GIT_AUTHOR_EMAIL: 'base@example.org',
  GIT_COMMITTER_NAME: 'Reviewer',
  GIT_COMMITTER_EMAIL: 'reviewer@example.org',
};

/** The environment for git in tests: a fixed identity and an empty home (no user config). */
export function testEnv(): NodeJS.ProcessEnv {
  const home = path.join(os.tmpdir(), 'kr-git-test-home');
  fs.mkdirSync(home, { recursive: true });
  return { ...process.env, ...GIT_ENV, HOME: home, XDG_CONFIG_HOME: home };
}

export function git(dir: string, args: string[], input?: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd: dir, env: { ...testEnv(), ...env }, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

const made: string[] = [];
process.on('exit', () => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh folder under the system's temporary folder, removed when the tests end. */
export function tempDir(name: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `kr-${name}-`));
  made.push(d);
  return d;
}

interface FileText {
  lines: Map<number, string>;
  /** Last line number that must end the file (a hunk with no trailing context), if any. */
  end: number | null;
  noNewline: boolean;
}

/** The base content every path of the series needs, keyed by base path. */
export function preimages(series: Series): Map<string, FileText> {
  const out = new Map<string, FileText>();
  const patches = series.patches;
  patches.forEach((patch, k) => {
    for (const f of patch.files) {
      if (f.isNew || !f.oldPath || f.isBinary) continue;
      for (const h of f.hunks) {
        const last = h.lines[h.lines.length - 1];
        const points = h.lines
          .filter((l) => l.type !== 'add' && l.oldLine !== null)
          .map((l) => ({ n: l.oldLine as number, text: l.text as string | null, noNl: !!l.noNewlineAtEnd }));
        // A hunk without trailing context must match at the end of the file (git apply's rule).
        if (last && last.type !== 'context') points.push({ n: h.oldStart + h.oldLines - 1, text: null, noNl: false });
        for (const pt of points) {
          if (pt.n < 1) continue;
          // Carry the line back to the base through patches k-1 .. 0.
          let p = f.oldPath;
          let n: number | null = pt.n;
          for (let j = k - 1; j >= 0 && n !== null; j--) {
            const g: DiffFile | undefined = patches[j].files.find((x) => x.newPath === p);
            if (!g) continue;
            if (g.isNew || !g.oldPath) n = null;
            else {
              n = mapNewToOld(g, n);
              p = g.oldPath;
            }
          }
          if (n === null) continue;
          const ft = out.get(p) ?? { lines: new Map(), end: null, noNewline: false };
          out.set(p, ft);
          if (pt.text === null) ft.end = Math.max(ft.end ?? 0, n);
          else ft.lines.set(n, pt.text);
          if (pt.noNl) ft.noNewline = true;
        }
      }
    }
  });
  return out;
}

/** Writes the files for a series into `dir` (and any extra files), commits them; returns HEAD. */
export function buildRepo(dir: string, seriesList: Series[], extra: Record<string, string> = {}): string {
  git(dir, ['init', '-q', '-b', 'main']);
  const files = new Map<string, string>();
  for (const s of seriesList) {
    for (const [p, ft] of preimages(s)) {
      const max = Math.max(0, ...ft.lines.keys(), ft.end ?? 0);
      const lines: string[] = [];
      for (let i = 1; i <= max; i++) lines.push(ft.lines.get(i) ?? `/* filler ${i} */`);
      files.set(p, lines.join('\n') + (ft.noNewline ? '' : '\n'));
    }
    for (const patch of s.patches) {
      for (const f of patch.files) {
        if (!f.isNew && f.oldPath && !files.has(f.oldPath)) files.set(f.oldPath, `/* ${f.oldPath} */\n`);
      }
    }
  }
  for (const [p, text] of Object.entries(extra)) files.set(p, text);
  for (const [p, text] of files) {
    fs.mkdirSync(path.join(dir, path.dirname(p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'base'], undefined, { GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z' });
  return git(dir, ['rev-parse', 'HEAD']).trim();
}

function hashTree(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(rel, e.name);
    if (p === '.git') continue;
    if (e.isDirectory()) out.push(...hashTree(dir, p));
    else out.push(`${p} ${createHash('sha1').update(fs.readFileSync(path.join(dir, p))).digest('hex')}`);
  }
  return out;
}

/** Everything of the user's checkout that applying must leave alone. */
export function snapshot(dir: string): Record<string, unknown> {
  const gitDir = path.join(dir, '.git');
  const index = path.join(gitDir, 'index');
  return {
    head: fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8'),
    headCommit: git(dir, ['rev-parse', 'HEAD']),
    status: execFileSync('git', ['-c', 'core.fsmonitor=false', '--no-optional-locks', 'status', '--porcelain=v1', '-uall'], { cwd: dir, encoding: 'utf8', env: testEnv() }),
    index: fs.existsSync(index) ? createHash('sha1').update(fs.readFileSync(index)).digest('hex') : null,
    files: hashTree(dir),
    gitDirEntries: fs.readdirSync(gitDir).filter((n) => !['objects', 'refs', 'logs', 'packed-refs', 'ORIG_HEAD'].includes(n)).sort(),
  };
}
