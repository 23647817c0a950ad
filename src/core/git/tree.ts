/**
 * Builds new tree objects from a base tree plus per-path changes, touching only
 * the directories on the changed paths: the cost follows the size of the
 * patches and the directories they touch, never the size of the whole tree.
 *
 * Directory listings come from one `git ls-tree -t` of the ancestors; new tree
 * objects are serialised and hashed here and written by `git hash-object` in
 * one batch (which checks their format).
 */
import { createHash } from 'node:crypto';

export interface Entry {
  mode: string;
  oid: string;
}

interface Listing {
  entries: Map<string, Entry>;
}

export interface NewObject {
  type: 'blob' | 'tree' | 'commit';
  oid: string;
  body: Buffer;
}

/** Every ancestor directory of the paths ('' for the root), shallowest first. */
export function ancestorDirs(paths: Iterable<string>): string[] {
  const dirs = new Set<string>(['']);
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return [...dirs].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function depth(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}

function parentOf(p: string): [string, string] {
  const i = p.lastIndexOf('/');
  return i < 0 ? ['', p] : [p.slice(0, i), p.slice(i + 1)];
}

/** Hashes an object the way git does: `<type> <size>\0<body>`. */
export function hashObject(algo: 'sha1' | 'sha256', type: string, body: Buffer): string {
  return createHash(algo).update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** git's tree order: names compare bytewise, a tree's name as if it ended in `/`. */
function treeOrder(a: [string, Entry], b: [string, Entry]): number {
  const ka = Buffer.from(a[1].mode === '40000' ? `${a[0]}/` : a[0]);
  const kb = Buffer.from(b[1].mode === '40000' ? `${b[0]}/` : b[0]);
  return Buffer.compare(ka, kb);
}

export function serializeTree(entries: Map<string, Entry>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, e] of [...entries].sort(treeOrder)) {
    parts.push(Buffer.from(`${e.mode} ${name}\0`), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/** Parses `git ls-tree -z` output into [path, entry] pairs. */
export function parseLsTree(out: string): Array<[string, Entry & { type: string }]> {
  const rows: Array<[string, Entry & { type: string }]> = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid] = rec.slice(0, tab).split(' ');
    rows.push([rec.slice(tab + 1), { mode: mode === '040000' ? '40000' : mode, type, oid }]);
  }
  return rows;
}

export class TreeEditError extends Error {
  override name = 'TreeEditError';
}

/**
 * The state of the directories on the series' paths. Start it from the
 * ancestor listings of the base tree, then feed each patch's changes.
 */
export class TreeState {
  private readonly dirs = new Map<string, Listing>();
  private readonly dirOids = new Map<string, string>();

  constructor(
    private readonly algo: 'sha1' | 'sha256',
    baseTree: string,
    wantedDirs: string[],
    lsTreeRows: Array<[string, Entry & { type: string }]>,
  ) {
    this.dirOids.set('', baseTree);
    const wanted = new Set(wantedDirs);
    for (const d of wantedDirs) this.dirs.set(d, { entries: new Map() });
    for (const [p, e] of lsTreeRows) {
      const [dir, name] = parentOf(p);
      if (e.type === 'tree') this.dirOids.set(p, e.oid);
      if (wanted.has(dir)) this.dirs.get(dir)!.entries.set(name, { mode: e.mode, oid: e.oid });
    }
    // A wanted directory that the base does not have (or has as a file) starts empty.
    for (const d of wantedDirs) {
      if (d === '') continue;
      const [parent, name] = parentOf(d);
      const e = this.dirs.get(parent)?.entries.get(name);
      if (!e || e.mode !== '40000') this.dirs.set(d, { entries: new Map() });
    }
  }

  /** The entry at a path in the current state (blobs, links, submodules), or null. */
  get(p: string): Entry | null {
    const [dir, name] = parentOf(p);
    const e = this.dirs.get(dir)?.entries.get(name);
    return e && e.mode !== '40000' ? e : null;
  }

  /**
   * Applies changes (path -> new entry, or null to delete) and returns the new
   * root tree id plus the tree objects that must be written.
   */
  apply(changes: Map<string, Entry | null>): { root: string; objects: NewObject[] } {
    const dirty = new Set<string>();
    for (const [p, e] of changes) {
      const [dir, name] = parentOf(p);
      const listing = this.dirs.get(dir);
      if (!listing) throw new TreeEditError(`${p}: its directory was not loaded`);
      const old = listing.entries.get(name);
      if (old?.mode === '40000' && e) throw new TreeEditError(`${p}: a directory of that name exists`);
      if (e) listing.entries.set(name, e);
      else listing.entries.delete(name);
      for (let d = dir; ; d = parentOf(d)[0]) {
        dirty.add(d);
        if (d === '') break;
      }
    }
    const objects: NewObject[] = [];
    const order = [...dirty].sort((a, b) => depth(b) - depth(a));
    for (const d of order) {
      const listing = this.dirs.get(d)!;
      if (d !== '') {
        const [parent, name] = parentOf(d);
        const pl = this.dirs.get(parent)!;
        const existing = pl.entries.get(name);
        if (existing && existing.mode !== '40000') {
          throw new TreeEditError(`${d}: a file of that name exists where a directory is needed`);
        }
        if (listing.entries.size === 0) {
          pl.entries.delete(name);
          this.dirOids.delete(d);
          continue;
        }
      }
      const body = serializeTree(listing.entries);
      const oid = hashObject(this.algo, 'tree', body);
      this.dirOids.set(d, oid);
      objects.push({ type: 'tree', oid, body });
      if (d !== '') this.dirs.get(parentOf(d)[0])!.entries.set(parentOf(d)[1], { mode: '40000', oid });
    }
    return { root: this.dirOids.get('')!, objects };
  }
}
