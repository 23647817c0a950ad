/**
 * Applies a series to the user's repository as commits on a review branch,
 * without touching HEAD, the index, the work tree or the current branch.
 *
 * Each patch goes through `git apply --cached` on a temporary index that holds
 * only the paths the series touches (taken from the base tree); the new trees
 * are built from the directories on those paths (tree.ts), and the trees and
 * commits are written by `git hash-object` once every patch has applied. Only
 * then is the branch created or moved, with `update-ref` and its old value.
 * The cost follows the size of the patches, not the size of the tree.
 */
import * as fs from 'node:fs/promises';
import { InputError, Series } from '../model';
import { applyInMemory } from './memapply';
import { parseApplyError } from './applyError';
import { BaseChoice, BaseSource, chooseBase } from './base';
import { branchRef, checkedOutBranches, checkPrefix, defaultBranchName, DEFAULT_BRANCH_PREFIX, moveBranch, PlannedCommit, refValue, sameCommits } from './branch';
import { cleanStale, makeScratch, Scratch } from './cleanup';
import { authorIdent, commitBody, commitMessage, extraTrailers, TrailerOptions } from './message';
import { GitError, Repo } from './repo';
import { findUnsafePath } from './safety';
import { ancestorDirs, Entry, hashObject, NewObject, parseLsTree, TreeEditError, TreeState } from './tree';

export interface ApplyOptions {
  /** A revision, or 'auto' / undefined to choose (see base.ts). */
  base?: string;
  /** Branch name (without refs/heads/); default `<prefix><change-id or slug>-v<N>`. */
  branch?: string;
  branchPrefix?: string;
  trailers?: TrailerOptions;
  signal?: AbortSignal;
  /** Called after each patch applied (0-based index). */
  onPatch?: (index: number) => void;
}

export interface ApplyFailed {
  patchMessageId: string;
  /** 0-based position of the patch in the series. */
  patchIndex: number;
  file: string;
  hunk: number | null;
  reason: string;
}

export interface ApplyResult {
  branch: string;
  base: string;
  baseSource: BaseSource;
  baseDetail: string;
  commits: Array<{ patchMessageId: string; sha: string }>;
  failed: ApplyFailed | null;
  /** The branch already held exactly these commits; nothing was written. */
  unchanged: boolean;
  /** Message-IDs of patches that needed a 3-way merge. */
  threeWay: string[];
}

function patchLabel(series: Series, i: number): string {
  const p = series.patches[i];
  return `patch ${p.subject.index ?? i + 1}/${series.total} ${p.messageId}`;
}

/** Refuses a series that cannot be applied at all: no patches, no diff, hostile paths. */
function checkSeries(series: Series): void {
  if (series.patches.length === 0) throw new InputError(series.title || 'series', 'the series has no patches to apply');
  series.patches.forEach((p, i) => {
    if (!p.diffText.trim()) throw new InputError(patchLabel(series, i), 'the mail carries no diff');
    const bad = findUnsafePath(p);
    if (bad) throw new InputError(patchLabel(series, i), `refusing path '${bad.file}': it ${bad.reason}`);
  });
}

function seriesPaths(series: Series): string[] {
  const set = new Set<string>();
  for (const p of series.patches) {
    for (const f of p.files) {
      if (f.oldPath) set.add(f.oldPath);
      if (f.newPath) set.add(f.newPath);
    }
  }
  return [...set];
}

function parseLsFiles(out: string): { entries: Map<string, Entry>; conflicted: string[] } {
  const entries = new Map<string, Entry>();
  const conflicted: string[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, oid, stage] = rec.slice(0, tab).split(' ');
    const p = rec.slice(tab + 1);
    if (stage !== '0') conflicted.push(p);
    else entries.set(p, { mode, oid });
  }
  return { entries, conflicted: [...new Set(conflicted)] };
}

function diffEntries(before: Map<string, Entry>, after: Map<string, Entry>): Map<string, Entry | null> {
  const changes = new Map<string, Entry | null>();
  for (const [p, e] of after) {
    const b = before.get(p);
    if (!b || b.oid !== e.oid || b.mode !== e.mode) changes.set(p, e);
  }
  for (const p of before.keys()) if (!after.has(p)) changes.set(p, null);
  return changes;
}

async function committerIdent(repo: Repo): Promise<string> {
  try {
    return (await repo.run(['var', 'GIT_COMMITTER_IDENT'])).trim();
  } catch (e) {
    if (e instanceof GitError && e.kind === 'failed') {
      throw new GitError('failed', 'git has no committer identity: set user.name and user.email with git config.', e.args, e.stderr);
    }
    throw e;
  }
}

/** Writes objects of one type in one `git hash-object` call and checks git agrees on their ids. */
async function writeObjects(repo: Repo, scratch: Scratch, type: NewObject['type'], objects: NewObject[]): Promise<void> {
  const list = objects.filter((o) => o.type === type);
  for (let start = 0; start < list.length; start += 500) {
    const chunk = list.slice(start, start + 500);
    const files = await Promise.all(chunk.map((o, i) => scratch.write(`${type}-${start + i}`, o.body)));
    const out = (await repo.run(['hash-object', '-w', '-t', type, '--', ...files])).split('\n').filter(Boolean);
    chunk.forEach((o, i) => {
      if (out[i] !== o.oid) throw new GitError('failed', `git wrote ${type} ${out[i]} where ${o.oid} was expected.`, [], '');
    });
  }
}

interface Built {
  planned: PlannedCommit[];
  objects: NewObject[];
  commits: string[];
  failed: ApplyFailed | null;
  threeWay: string[];
}

/** Reads blob contents with one `git cat-file --batch`. */
async function readBlobs(repo: Repo, oids: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (oids.length === 0) return out;
  const buf = await repo.runBuffer(['cat-file', '--batch'], oids.map((o) => `${o}\n`).join(''));
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    const [oid, type, size] = buf.subarray(pos, nl).toString('latin1').split(' ');
    pos = nl + 1;
    if (type === undefined || size === undefined) continue; // `<oid> missing`
    const n = Number(size);
    if (type === 'blob') out.set(oid, buf.subarray(pos, pos + n));
    pos += n + 1;
  }
  return out;
}

/** Starts the temporary index from the current state of the series' paths. */
async function startIndex(repo: Repo, scratch: Scratch, state: TreeState, paths: string[]): Promise<Map<string, Entry>> {
  await fs.rm(scratch.indexFile, { force: true });
  const indexed = new Map<string, Entry>();
  for (const p of paths) {
    const e = state.get(p);
    if (e) indexed.set(p, e);
  }
  const cacheinfo = [...indexed].flatMap(([p, e]) => ['--cacheinfo', `${e.mode},${e.oid},${p}`]);
  for (let i = 0; i < cacheinfo.length; i += 1000) {
    await repo.run(['update-index', '--add', ...cacheinfo.slice(i, i + 1000)], { indexFile: scratch.indexFile });
  }
  return indexed;
}

/** One patch through `git apply --cached` (3-way on failure); the changes, or the failure. */
async function gitApply(repo: Repo, scratch: Scratch, patch: Series['patches'][number], i: number, out: Built): Promise<Map<string, Entry> | null> {
  const text = patch.diffText.endsWith('\n') ? patch.diffText : `${patch.diffText}\n`;
  const file = await scratch.write(`${i + 1}.patch`, text);
  const io = { indexFile: scratch.indexFile };
  try {
    await repo.run(['apply', '--cached', '--', file], io);
  } catch (e) {
    if (!(e instanceof GitError) || e.kind !== 'failed') throw e;
    const first = parseApplyError(e.stderr, patch.files);
    const retry = await repo.run(['apply', '--cached', '--3way', '--', file], io).then(() => null, (e2: unknown) => e2);
    if (retry) {
      if (!(retry instanceof GitError) || retry.kind !== 'failed') throw retry;
      out.failed = { patchMessageId: patch.messageId, patchIndex: i, ...first };
      if (/applied patch to '.*' with conflicts/i.test(retry.stderr)) out.failed.reason += '; a 3-way merge conflicts too';
      return null;
    }
    out.threeWay.push(patch.messageId);
  }
  const { entries, conflicted } = parseLsFiles(await repo.run(['ls-files', '-s', '-z'], io));
  if (conflicted.length) {
    out.failed = { patchMessageId: patch.messageId, patchIndex: i, file: conflicted[0], hunk: null, reason: 'the 3-way merge left conflicts in this file' };
    return null;
  }
  return entries;
}

/**
 * Applies every patch (in memory when blob ids prove the result, else on the
 * temporary index) and builds, but does not write, the trees and commits.
 */
async function build(repo: Repo, series: Series, base: BaseChoice, scratch: Scratch, opts: ApplyOptions): Promise<Built> {
  const paths = seriesPaths(series);
  const dirs = ancestorDirs(paths);
  const ls = await repo.run(['ls-tree', '-t', '-z', '--full-tree', base.commit, '--', ...dirs.map((d) => (d ? `${d}/` : '.'))]);
  const state = new TreeState(repo.objectFormat, (await repo.run(['rev-parse', `${base.commit}^{tree}`])).trim(), dirs, parseLsTree(ls));
  const wanted = new Set<string>();
  for (const p of paths) {
    const e = state.get(p);
    if (e && /^100(644|755)$/.test(e.mode)) wanted.add(e.oid);
  }
  const contents = await readBlobs(repo, [...wanted]);
  const committer = await committerIdent(repo);
  const now = new Date();
  const out: Built = { planned: [], objects: [], commits: [], failed: null, threeWay: [] };
  let indexed: Map<string, Entry> | null = null;
  let parent = base.commit;
  for (let i = 0; i < series.patches.length; i++) {
    if (opts.signal?.aborted) throw new Error('cancelled');
    const patch = series.patches[i];
    let changes: Map<string, Entry | null>;
    const mem = indexed ? null : applyInMemory(patch, (p) => state.get(p), (o) => contents.get(o), repo.objectFormat);
    if (mem) {
      changes = mem.changes;
      for (const [oid, body] of mem.blobs) {
        contents.set(oid, body);
        out.objects.push({ type: 'blob', oid, body });
      }
    } else {
      if (!indexed) {
        // From here on, git apply: the blobs made so far must exist for it.
        await writeObjects(repo, scratch, 'blob', out.objects);
        indexed = await startIndex(repo, scratch, state, paths);
      }
      const entries = await gitApply(repo, scratch, patch, i, out);
      if (!entries) return out;
      changes = diffEntries(indexed, entries);
      indexed = entries;
    }
    let tree: { root: string; objects: NewObject[] };
    try {
      tree = state.apply(changes);
    } catch (e) {
      if (!(e instanceof TreeEditError)) throw e;
      const [f, ...why] = e.message.split(': ');
      out.failed = { patchMessageId: patch.messageId, patchIndex: i, file: f, hunk: null, reason: why.join(': ') };
      return out;
    }
    const message = commitMessage(patch, extraTrailers(series, patch, opts.trailers));
    const author = authorIdent(patch.author, patch.date, now);
    const body = commitBody(tree.root, parent, author, committer, message);
    parent = hashObject(repo.objectFormat, 'commit', body);
    out.objects.push(...tree.objects, { type: 'commit', oid: parent, body });
    out.planned.push({ tree: tree.root, author, message });
    out.commits.push(parent);
    opts.onPatch?.(i);
  }
  return out;
}

export async function applySeries(repo: Repo, series: Series, opts: ApplyOptions = {}): Promise<ApplyResult> {
  checkSeries(series);
  await cleanStale(repo.gitDir);
  const prefix = checkPrefix(opts.branchPrefix ?? DEFAULT_BRANCH_PREFIX);
  const ref = await branchRef(repo, opts.branch ?? defaultBranchName(series, prefix));
  const base = await chooseBase(repo, series, { base: opts.base, branchPrefix: prefix });
  const result: ApplyResult = {
    branch: ref,
    base: base.commit,
    baseSource: base.source,
    baseDetail: base.detail,
    commits: [],
    failed: null,
    unchanged: false,
    threeWay: [],
  };
  const scratch = await makeScratch(repo.gitDir);
  try {
    const built = await build(repo, series, base, scratch, opts);
    result.threeWay = built.threeWay;
    if (built.failed) {
      result.failed = built.failed;
      return result;
    }
    const old = await refValue(repo, ref);
    const same = old ? await sameCommits(repo, ref, base.commit, built.planned) : null;
    let ids = built.commits;
    if (same) {
      ids = same;
      result.unchanged = true;
    } else {
      if (old && (await checkedOutBranches(repo)).has(ref)) {
        throw new InputError(repo.root, `${ref} is checked out; switch away from it or pass another --branch`);
      }
      const unique = [...new Map(built.objects.map((o) => [o.oid, o])).values()];
      await writeObjects(repo, scratch, 'blob', unique);
      await writeObjects(repo, scratch, 'tree', unique);
      await writeObjects(repo, scratch, 'commit', unique);
      await moveBranch(repo, ref, ids[ids.length - 1], old, `kernel-review: apply ${series.title}`.replace(/[\r\n]/g, ' '));
    }
    result.commits = series.patches.map((p, i) => ({ patchMessageId: p.messageId, sha: ids[i] }));
    return result;
  } finally {
    await scratch.dispose();
  }
}
