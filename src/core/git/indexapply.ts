/**
 * The general path: `git apply --cached` (with a 3-way retry) on a temporary
 * index that holds only the series' paths, so git's own checks and messages
 * apply and the cost does not grow with the tree.
 */
import * as fs from 'node:fs/promises';
import type { Patch } from '../model';
import { ApplyFailure, parseApplyError } from './applyError';
import type { Scratch } from './cleanup';
import { GitError, Repo } from './repo';
import type { Entry, TreeState } from './tree';

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

/** What changed between two index states: path -> new entry, or null when removed. */
export function diffEntries(before: Map<string, Entry>, after: Map<string, Entry>): Map<string, Entry | null> {
  const changes = new Map<string, Entry | null>();
  for (const [p, e] of after) {
    const b = before.get(p);
    if (!b || b.oid !== e.oid || b.mode !== e.mode) changes.set(p, e);
  }
  for (const p of before.keys()) if (!after.has(p)) changes.set(p, null);
  return changes;
}

/** (Re)starts the temporary index from the current state of the series' paths. */
export async function startIndex(repo: Repo, scratch: Scratch, state: TreeState, paths: string[]): Promise<Map<string, Entry>> {
  await fs.rm(scratch.indexFile, { force: true });
  const indexed = new Map<string, Entry>();
  for (const p of paths) {
    const e = state.get(p);
    if (e) indexed.set(p, e);
  }
  const cacheinfo = [...indexed].flatMap(([p, e]) => ['--cacheinfo', `${e.mode},${e.oid},${p}`]);
  for (let i = 0; i < cacheinfo.length; i += 1000) {
    await repo.run(['update-index', '--add', '--verbose', ...cacheinfo.slice(i, i + 1000)], { indexFile: scratch.indexFile });
  }
  return indexed;
}

export type IndexApplyResult = { entries: Map<string, Entry>; threeWay: boolean } | { failure: ApplyFailure };

/**
 * One patch through `git apply --cached`, retried with `--3way`; the new index
 * entries, or why it failed. (`--numstat --apply` only makes git print
 * something: simple-git waits 50 ms longer for commands that print nothing.)
 */
export async function applyOnIndex(repo: Repo, scratch: Scratch, patch: Patch, n: number): Promise<IndexApplyResult> {
  const text = patch.diffText.endsWith('\n') ? patch.diffText : `${patch.diffText}\n`;
  const file = await scratch.write(`${n}.patch`, text);
  const io = { indexFile: scratch.indexFile };
  let threeWay = false;
  try {
    await repo.run(['apply', '--cached', '--numstat', '--apply', '--', file], io);
  } catch (e) {
    if (!(e instanceof GitError) || e.kind !== 'failed') throw e;
    const first = parseApplyError(e.stderr, patch.files);
    const retry = await repo.run(['apply', '--cached', '--3way', '--numstat', '--apply', '--', file], io).then(() => null, (e2: unknown) => e2);
    if (retry) {
      if (!(retry instanceof GitError) || retry.kind !== 'failed') throw retry;
      if (/applied patch to '.*' with conflicts/i.test(retry.stderr)) first.reason += '; a 3-way merge conflicts too';
      return { failure: first };
    }
    threeWay = true;
  }
  const { entries, conflicted } = parseLsFiles(await repo.run(['ls-files', '-s', '-z'], io));
  if (conflicted.length) return { failure: { file: conflicted[0], hunk: null, reason: 'the 3-way merge left conflicts in this file' } };
  return { entries, threeWay };
}
