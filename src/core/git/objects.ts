/**
 * Reading and writing objects in batches: blob contents with one
 * `git cat-file --batch`, new objects with one `git hash-object -w` per type
 * (which checks their format and must agree on their ids).
 */
import type { Scratch } from './cleanup';
import { GitError, Repo } from './repo';
import type { NewObject } from './tree';

/** Reads objects by name (`<oid>`, `<commit>:<path>`), in order: [id, content] for each blob, null otherwise. */
export async function readNamed(repo: Repo, names: string[]): Promise<Array<[string, Buffer] | null>> {
  const out: Array<[string, Buffer] | null> = [];
  if (names.length === 0) return out;
  const buf = await repo.runBuffer(['cat-file', '--batch'], names.map((o) => `${o}\n`).join(''));
  let pos = 0;
  while (pos < buf.length && out.length < names.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    const [oid, type, size] = buf.subarray(pos, nl).toString('latin1').split(' ');
    pos = nl + 1;
    if (type === undefined || size === undefined || !/^\d+$/.test(size)) {
      out.push(null); // `<name> missing` or `ambiguous`
      continue;
    }
    const n = Number(size);
    out.push(type === 'blob' ? [oid, buf.subarray(pos, pos + n)] : null);
    pos += n + 1;
  }
  return out;
}

/** Reads blob contents, keyed by blob id. */
export async function readBlobs(repo: Repo, names: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const r of await readNamed(repo, names)) if (r) out.set(r[0], r[1]);
  return out;
}

/** Writes the objects of one type and checks git computed the same ids. */
export async function writeObjects(repo: Repo, scratch: Scratch, type: NewObject['type'], objects: NewObject[]): Promise<void> {
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

/** `Name <email> <time> <zone>` of the committer, as git would use it. */
export async function committerIdent(repo: Repo): Promise<string> {
  try {
    return (await repo.run(['var', 'GIT_COMMITTER_IDENT'])).trim();
  } catch (e) {
    if (e instanceof GitError && e.kind === 'failed') {
      throw new GitError('failed', 'git has no committer identity: set user.name and user.email with git config.', e.args, e.stderr);
    }
    throw e;
  }
}
