/**
 * Applies a series to the user's repository as commits on a review branch,
 * without touching HEAD, the index, the work tree or the current branch.
 *
 * Each patch is applied in memory when git's blob ids prove the result (the
 * pre-image is the blob its `index` line names and the post-image hashes to
 * the one named after `..`: memapply.ts); otherwise, from then on, through
 * `git apply --cached` on a temporary index that holds only the paths the
 * series touches. New trees are built from the directories on those paths
 * (tree.ts); blobs, trees and commits are written by `git hash-object` once
 * every patch has applied, and only then is the branch created or moved, with
 * `update-ref` and its old value. The cost follows the size of the patches,
 * not the size of the tree.
 */
import { InputError, Series } from '../model';
import { applyInMemory } from './memapply';
import { BaseChoice, BaseSource, chooseBase } from './base';
import { branchRef, checkedOutBranches, checkPrefix, defaultBranchName, DEFAULT_BRANCH_PREFIX, moveBranch, PlannedCommit, refValue, sameCommits } from './branch';
import { cleanStale, makeScratch, Scratch } from './cleanup';
import { authorIdent, commitBody, commitMessage, extraTrailers, TrailerOptions } from './message';
import { Repo } from './repo';
import { applyOnIndex, diffEntries, startIndex } from './indexapply';
import { committerIdent, readBlobs, writeObjects } from './objects';
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

interface Built {
  planned: PlannedCommit[];
  objects: NewObject[];
  commits: string[];
  failed: ApplyFailed | null;
  threeWay: string[];
}

/**
 * Applies every patch (in memory when blob ids prove the result, else on the
 * temporary index) and builds, but does not write, the trees and commits.
 */
async function build(repo: Repo, series: Series, base: BaseChoice, scratch: Scratch, opts: ApplyOptions): Promise<Built> {
  const paths = seriesPaths(series);
  const dirs = ancestorDirs(paths);
  // Independent reads run side by side: process start-up, not work, is most of their cost.
  const [ls, rootTree, committer, contents] = await Promise.all([
    repo.run(['ls-tree', '-t', '-z', '--full-tree', base.commit, '--', ...dirs.map((d) => (d ? `${d}/` : '.'))]),
    repo.run(['rev-parse', `${base.commit}^{tree}`]),
    committerIdent(repo),
    readBlobs(repo, paths.filter((p) => !p.includes('\n')).map((p) => `${base.commit}:${p}`)),
  ]);
  const state = new TreeState(repo.objectFormat, rootTree.trim(), dirs, parseLsTree(ls));
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
      const r = await applyOnIndex(repo, scratch, patch, i + 1);
      if ('failure' in r) {
        out.failed = { patchMessageId: patch.messageId, patchIndex: i, ...r.failure };
        return out;
      }
      if (r.threeWay) out.threeWay.push(patch.messageId);
      changes = diffEntries(indexed, r.entries);
      indexed = r.entries;
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
    const author = authorIdent(patch.author, patch.date, now, patch.dateZone);
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
  const previousBase = `${ref}~${series.patches.length}`;
  const base = await chooseBase(repo, series, { base: opts.base, branchPrefix: prefix, previousBase });
  const oldValue = refValue(repo, ref);
  oldValue.catch(() => undefined);
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
    const old = await oldValue;
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
      // All at once: a run killed here leaves only unreachable objects, which git fsck calls dangling.
      await Promise.all((['blob', 'tree', 'commit'] as const).map((t) => writeObjects(repo, scratch, t, unique)));
      await moveBranch(repo, ref, ids[ids.length - 1], old, `kernel-review: apply ${series.title}`.replace(/[\r\n]/g, ' '));
    }
    result.commits = series.patches.map((p, i) => ({ patchMessageId: p.messageId, sha: ids[i] }));
    return result;
  } finally {
    await scratch.dispose();
  }
}
