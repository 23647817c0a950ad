/**
 * Review branches: `<prefix><change-id or subject slug>-v<N>`, created or moved
 * only after every commit exists, with `update-ref` and the old value, so a
 * failure never leaves a half-made branch and a concurrent change is not lost.
 */
import { InputError, Series } from '../model';
import { GitError, Repo } from './repo';

export const DEFAULT_BRANCH_PREFIX = 'review/';

/** Lower-case words of [a-z0-9] joined by `-`, at most `max` characters. */
export function slugify(text: string, max = 60): string {
  const words = text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);
  let out = '';
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > max) break;
    out = next;
  }
  return out || 'series';
}

/** Checks a prefix such as `review/`; only plain words, `-`, `_`, `.` and `/`. */
export function checkPrefix(prefix: string): string {
  if (!/^(?:[A-Za-z0-9_][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_.-]*$/.test(prefix) || /\.\.|\.lock\//.test(prefix)) {
    throw new InputError('branch prefix', `'${prefix}' is not a usable branch name prefix`);
  }
  return prefix;
}

/** The default review branch name (without `refs/heads/`). */
export function defaultBranchName(series: Series, prefix = DEFAULT_BRANCH_PREFIX): string {
  const changeId = series.changeId ?? series.patches.find((p) => p.changeId)?.changeId ?? null;
  const stem = changeId ? slugify(changeId, 80) : slugify(series.title);
  return `${checkPrefix(prefix)}${stem}-v${Math.max(1, Math.floor(series.version) || 1)}`;
}

/** Full ref for a branch name the user or the defaults gave; refuses what git would refuse. */
export async function branchRef(repo: Repo, name: string): Promise<string> {
  const short = name.replace(/^refs\/heads\//, '');
  const ref = `refs/heads/${short}`;
  // Names made of slug words under a checked prefix are valid by construction.
  if (/^(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9][a-z0-9-]*-v\d+$/.test(short) && !/\.lock(\/|$)/.test(short)) return ref;
  const ok = await repo.tryRun(['check-ref-format', '--normalize', ref]);
  if (ok === null || short.startsWith('-')) throw new InputError(repo.root, `'${name}' is not a valid branch name`);
  return ref;
}

/** The branches checked out in any work tree of the repository. */
export async function checkedOutBranches(repo: Repo): Promise<Set<string>> {
  const out = await repo.tryRun(['worktree', 'list', '--porcelain']);
  const set = new Set<string>();
  for (const l of (out ?? '').split('\n')) if (l.startsWith('branch ')) set.add(l.slice(7));
  const head = await repo.tryRun(['symbolic-ref', '-q', 'HEAD']);
  if (head) set.add(head.trim());
  return set;
}

export interface PlannedCommit {
  tree: string;
  author: string;
  message: string;
}

const SEP = '\x1f';

/**
 * When the branch already holds exactly these commits (same trees, authors and
 * messages, on the same base), returns their ids, oldest first; else null.
 */
export async function sameCommits(repo: Repo, ref: string, base: string, planned: PlannedCommit[]): Promise<string[] | null> {
  const fmt = ['%H', '%T', '%P', '%an <%ae> %ad', '%B'].join('%x1f');
  const out = await repo.tryRun(['log', '-z', '--date=raw', `--format=${fmt}`, `--max-count=${planned.length}`, ref, '--']);
  if (!out) return null;
  const rows = out.split('\0').filter((r) => r.length).reverse();
  if (rows.length !== planned.length) return null;
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const [id, tree, parents, author, message] = rows[i].split(SEP);
    const want = planned[i];
    const parentOk = i === 0 ? parents === base : parents === ids[i - 1];
    if (!parentOk || tree !== want.tree || author !== want.author) return null;
    if (message.trimEnd() !== want.message.trimEnd()) return null;
    ids.push(id);
  }
  return ids;
}

/** The commit a ref points at, or null when it does not exist. */
export async function refValue(repo: Repo, ref: string): Promise<string | null> {
  // cat-file answers for a missing ref too (`<name> missing`), which keeps this call quick.
  const out = (await repo.run(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: `${ref}^{commit}\n` })).trim();
  const m = /^([0-9a-f]{40,64}) commit$/.exec(out);
  return m ? m[1] : null;
}

/** Points `ref` at `tip`, only if it still has the value `old` (null: must not exist). */
export async function moveBranch(repo: Repo, ref: string, tip: string, old: string | null, reason: string): Promise<void> {
  try {
    // Through standard input: a transaction with the old value, and no mail text on the command line.
    await repo.run(['update-ref', '--stdin', '-z', '-m', reason], { input: `update ${ref}\0${tip}\0${old ?? repo.zeroOid}\0` });
  } catch (e) {
    if (e instanceof GitError && e.kind === 'failed' && /cannot lock ref|expected|reference already exists/i.test(e.stderr)) {
      throw new GitError('locked', `${ref} changed while the series was being applied; run again.`, e.args, e.stderr);
    }
    throw e;
  }
}
