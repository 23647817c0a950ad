import * as vscode from 'vscode';

/** Scheme of the read-only documents: files at a commit, and mail views. */
export const SCHEME = 'kernel-review';

export type DocRef =
  | { t: 'git'; tree: string; rev: string; file: string }
  | { t: 'msg'; thread: string; msg: string };

function slug(s: string): string {
  return s.replace(/^\[[^\]]*\]\s*/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'message';
}

/** `kernel-review:/<file>?t=git&tree=…&rev=…`: the file as it is at `rev` (nothing is checked out). */
export function gitUri(tree: string, rev: string, file: string): vscode.Uri {
  const query = new URLSearchParams({ t: 'git', tree, rev }).toString();
  return vscode.Uri.from({ scheme: SCHEME, path: `/${file.replace(/^\/+/, '')}`, query });
}

/** `kernel-review:/<short rev>/<subject>.eml?t=msg&…`: one mail, rendered read-only in the review-mail language. */
export function messageUri(thread: string, msg: string, subject: string): vscode.Uri {
  const query = new URLSearchParams({ t: 'msg', thread, msg }).toString();
  return vscode.Uri.from({ scheme: SCHEME, path: `/mail/${slug(subject)}.eml`, query });
}

export function parseDocUri(uri: vscode.Uri): DocRef | undefined {
  if (uri.scheme !== SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  if (q.get('t') === 'git') {
    const tree = q.get('tree');
    const rev = q.get('rev');
    if (!tree || !rev) return undefined;
    return { t: 'git', tree, rev, file: uri.path.replace(/^\/+/, '') };
  }
  if (q.get('t') === 'msg') {
    const thread = q.get('thread');
    const msg = q.get('msg');
    if (!thread || !msg) return undefined;
    return { t: 'msg', thread, msg };
  }
  return undefined;
}
