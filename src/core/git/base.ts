/**
 * Which commit to apply a series on, in order: the one the user gave; the
 * series' `base-commit:` when this tree has it; a guess from the pre-image
 * blob ids in the patches' `index` lines (the recent commit, up to the
 * series' date, whose tree holds the most of them — the way b4 guesses);
 * else HEAD, where a patch that does not apply falls back to a 3-way merge.
 */
import { InputError, Series } from '../model';
import { Repo } from './repo';

export type BaseSource = 'explicit' | 'base-commit' | 'guess' | 'head';

export interface BaseChoice {
  commit: string;
  source: BaseSource;
  /** One sentence on how the base was found, for logs and the CLI. */
  detail: string;
}

export interface BaseOptions {
  /** A revision, or undefined / 'auto' to decide. */
  base?: string;
  /** Branch prefix whose branches are never candidates (our own review branches). */
  branchPrefix: string;
  /** A revision to try first when guessing (the base of an existing review branch of the series). */
  previousBase?: string;
  /** How many recent commits the guess looks at (default 1000). */
  maxCandidates?: number;
}

/** The pre-image blob id of each path, from the first patch that touches it. */
export function preimageBlobs(series: Series): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  for (const p of series.patches) {
    for (const f of p.files) {
      const key = f.oldPath ?? f.newPath ?? f.path;
      if (seen.has(key)) continue;
      seen.add(key);
      if (f.newPath) seen.add(f.newPath);
      if (f.isNew || !f.oldPath || !f.oldBlob || /^0+$/.test(f.oldBlob)) continue;
      if (/^[0-9a-f]{7,64}$/i.test(f.oldBlob) && !f.oldPath.includes('\n')) out.set(f.oldPath, f.oldBlob.toLowerCase());
    }
  }
  return out;
}

function seriesDate(series: Series): Date | null {
  let max: Date | null = null;
  for (const p of series.patches) if (p.date && (!max || p.date > max)) max = p.date;
  return max;
}

/** Counts, for each candidate commit, how many pre-image blobs its tree holds at their paths. */
async function scoreCandidates(repo: Repo, commits: string[], blobs: Map<string, string>): Promise<number[]> {
  const paths = [...blobs.keys()];
  const input = commits.flatMap((c) => paths.map((p) => `${c}:${p}\n`)).join('');
  const out = await repo.run(['cat-file', '--batch-check=%(objectname)'], { input });
  const rows = out.split('\n');
  return commits.map((_, ci) => {
    let n = 0;
    paths.forEach((p, pi) => {
      const row = rows[ci * paths.length + pi] ?? '';
      if (row.startsWith(blobs.get(p)!)) n++;
    });
    return n;
  });
}

async function guess(repo: Repo, series: Series, opts: BaseOptions): Promise<BaseChoice | null> {
  const blobs = preimageBlobs(series);
  if (blobs.size === 0) return null;
  // Quick candidates first, in one call: the base of an existing review branch of this series
  // (so that applying again keeps it), then HEAD. One that holds every pre-image blob wins.
  const paths = [...blobs.keys()];
  const quick = [...(opts.previousBase ? [opts.previousBase] : []), 'HEAD'];
  const input = quick.flatMap((c) => [c, ...paths.map((p) => `${c}:${p}`)]).join('\n') + '\n';
  const rows = await repo.run(['cat-file', '--batch-check=%(objectname)'], { input }).then((o) => o.split('\n'), () => [] as string[]);
  for (let q = 0; q < quick.length; q++) {
    const at = rows.slice(q * (paths.length + 1), (q + 1) * (paths.length + 1));
    if (/^[0-9a-f]{40,64}$/.test(at[0] ?? '') && paths.every((p, i) => (at[i + 1] ?? '').startsWith(blobs.get(p)!))) {
      const what = quick[q] === 'HEAD' ? 'HEAD holds' : 'the existing review branch is based on a commit that holds';
      return { commit: at[0], source: 'guess', detail: `guessed from the patches' index lines: ${what} all ${blobs.size} pre-image blobs` };
    }
  }
  const date = seriesDate(series);
  const args = ['rev-list', `--max-count=${opts.maxCandidates ?? 1000}`];
  if (date) args.push(`--until=@${Math.floor(date.getTime() / 1000)}`);
  // --all includes HEAD (also a detached one).
  args.push(`--exclude=refs/heads/${opts.branchPrefix}*`, '--all');
  const commits = (await repo.run(args)).split('\n').filter(Boolean);
  let best: { commit: string; score: number } | null = null;
  // Newest first, in growing chunks: stop at the first commit that holds every blob.
  for (let i = 0, size = 32; i < commits.length; i += size, size *= 4) {
    const chunk = commits.slice(i, i + size);
    const scores = await scoreCandidates(repo, chunk, blobs);
    scores.forEach((s, k) => {
      if (s > 0 && (!best || s > best.score)) best = { commit: chunk[k], score: s };
    });
    if (best && (best as { score: number }).score === blobs.size) break;
  }
  if (!best) return null;
  const b = best as { commit: string; score: number };
  return {
    commit: b.commit,
    source: 'guess',
    detail: `guessed from the patches' index lines: ${b.score} of ${blobs.size} pre-image blobs match`,
  };
}

export async function chooseBase(repo: Repo, series: Series, opts: BaseOptions): Promise<BaseChoice> {
  if (opts.base && opts.base !== 'auto') {
    const c = await repo.resolveCommit(opts.base);
    if (!c) throw new InputError(repo.root, `--base ${opts.base} does not name a commit in this repository`);
    return { commit: c, source: 'explicit', detail: `given: ${opts.base}` };
  }
  const bc = series.baseCommit ?? series.patches.find((p) => p.baseCommit)?.baseCommit ?? null;
  let note = '';
  if (bc && /^[0-9a-f]{7,64}$/i.test(bc)) {
    const c = await repo.resolveCommit(bc);
    if (c) return { commit: c, source: 'base-commit', detail: `the series' base-commit ${bc}` };
    note = ` (base-commit ${bc} is not in this repository)`;
  }
  const g = await guess(repo, series, opts);
  if (g) return { ...g, detail: g.detail + note };
  const head = await repo.resolveCommit('HEAD');
  if (!head) throw new InputError(repo.root, 'the repository has no commits to apply the series on');
  return { commit: head, source: 'head', detail: `HEAD, with a 3-way fallback${note}` };
}
