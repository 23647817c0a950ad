/**
 * parseDiff against git itself: diffs produced by real git in a temporary
 * repository (quoted/unicode paths, renames, copies, deletes, mode changes,
 * binary files, missing final newlines) must parse into the files, modes,
 * blob ids and line counts `git diff --raw/--numstat` report; and every patch
 * extracted from the fixture mails must agree with `git apply --numstat`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fixture } from '../fixtures';
import { readMails } from '../../../src/core/mail/read';
import { parseMail } from '../../../src/core/mail/parse';
import { extractPatch } from '../../../src/core/patch/extract';
import { parseDiff, unquotePath } from '../../../src/core/patch/diff';
import type { DiffFile, Patch } from '../../../src/core/model';

function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd, input, encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd },
  });
}

function counts(f: DiffFile): [number, number] {
  const lines = f.hunks.flatMap((h) => h.lines);
  return [lines.filter((l) => l.type === 'add').length, lines.filter((l) => l.type === 'del').length];
}

/** `git apply --numstat -z` / `git diff --numstat -z` → [adds, dels, path] ("-" for binary). */
function numstat(out: string): [string, string, string][] {
  const parts = out.split('\0');
  const rows: [string, string, string][] = [];
  for (let i = 0; i < parts.length - 1; i++) {
    const [, a, d, p] = /^([^\t]*)\t([^\t]*)\t(.*)$/s.exec(parts[i]) ?? ['', '', '', ''];
    if (p === '') {
      rows.push([a, d, parts[i + 2]]);
      i += 2;
    } else rows.push([a, d, p]);
  }
  return rows;
}

test('diffs made by git in a temp repository parse as git describes them', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpr-diff-'));
  try {
    git(dir, ['init', '-q']);
    const body = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    fs.writeFileSync(path.join(dir, 'keep.c'), body);
    fs.writeFileSync(path.join(dir, 'to rename.txt'), body.replace('line 7', 'seven'));
    fs.writeFileSync(path.join(dir, 'gone.h'), 'bye\n');
    fs.writeFileSync(path.join(dir, 'script.sh'), 'echo hi\n');
    fs.writeFileSync(path.join(dir, 'copy-src.c'), body.replace(/line/g, 'src'));
    fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', 'base']);
    fs.writeFileSync(path.join(dir, 'keep.c'), body.replace('line 3\n', 'line three\n').replace('line 40\n', 'line 40'));
    fs.renameSync(path.join(dir, 'to rename.txt'), path.join(dir, 'renamed ünï.txt'));
    fs.writeFileSync(path.join(dir, 'renamed ünï.txt'), body.replace('line 7', 'seven').replace('line 20', 'twenty'));
    fs.unlinkSync(path.join(dir, 'gone.h'));
    fs.chmodSync(path.join(dir, 'script.sh'), 0o755);
    fs.writeFileSync(path.join(dir, 'copy-dst.c'), body.replace(/line/g, 'src').replace('src 1\n', 'dst 1\n'));
    fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([0, 9, 9, 0]));
    fs.writeFileSync(path.join(dir, 'tab\tname'), 'x\n');
    git(dir, ['add', '-A']);
    const diff = git(dir, ['diff', '--cached', '-M', '-C', '-C', '--binary', '--full-index']);
    const files = parseDiff(diff);
    const raw = git(dir, ['diff', '--cached', '-M', '-C', '-C', '--raw', '-z', '--no-abbrev']).split('\0');
    const stat = numstat(git(dir, ['diff', '--cached', '-M', '-C', '-C', '--numstat', '-z']));
    // --raw -z: ":oldmode newmode oldsha newsha status\0path[\0path2]\0"
    const want: { status: string; oldMode: string; newMode: string; oldBlob: string; newBlob: string; paths: string[] }[] = [];
    for (let i = 0; i < raw.length - 1; ) {
      const [oldMode, newMode, oldBlob, newBlob, status] = raw[i].slice(1).split(' ');
      const n = /^[RC]/.test(status) ? 2 : 1;
      want.push({ status, oldMode, newMode, oldBlob, newBlob, paths: raw.slice(i + 1, i + 1 + n) });
      i += 1 + n;
    }
    assert.equal(files.length, want.length);
    for (const w of want) {
      const newPath = w.paths[w.paths.length - 1];
      const f = files.find((x) => x.path === newPath || (w.status === 'D' && x.oldPath === newPath));
      assert.ok(f, `file ${newPath} (${w.status}) parsed; got ${files.map((x) => x.path).join(', ')}`);
      const s = w.status[0];
      assert.equal(f.isNew, s === 'A', `${newPath} isNew`);
      assert.equal(f.isDeleted, s === 'D', `${newPath} isDeleted`);
      assert.equal(f.isRename, s === 'R', `${newPath} isRename`);
      if (s === 'R' || s === 'C') assert.equal(f.oldPath, w.paths[0]);
      if (s === 'D') assert.equal(f.newPath, null);
      if (s === 'A') assert.equal(f.oldPath, null);
      if (w.oldMode !== w.newMode) assert.deepEqual([f.oldMode, f.newMode], [s === 'A' ? null : w.oldMode, s === 'D' ? null : w.newMode]);
      if (f.oldBlob !== null) {
        assert.equal(f.oldBlob, w.oldBlob);
        assert.equal(f.newBlob, w.newBlob);
      }
      const st = stat.find((r) => r[2] === newPath);
      assert.ok(st, `numstat row for ${newPath}`);
      if (st[0] === '-') assert.equal(f.isBinary, true, `${newPath} binary`);
      else assert.deepEqual(counts(f), [Number(st[0]), Number(st[1])], `${newPath} counts`);
    }
    const keep = files.find((f) => f.path === 'keep.c')!;
    const last = keep.hunks[keep.hunks.length - 1].lines;
    assert.deepEqual(last.filter((l) => l.noNewlineAtEnd).map((l) => [l.type, l.text, l.oldLine, l.newLine]), [['add', 'line 40', null, 40]]);
    const three = keep.hunks[0].lines.find((l) => l.type === 'add')!;
    assert.deepEqual([three.text, three.newLine], ['line three', 3]);
    assert.ok(files.some((f) => f.path === 'tab\tname' && f.isNew));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('unquotePath decodes git C-quoting including octal UTF-8 bytes', () => {
  assert.equal(unquotePath('"a/renamed \\303\\274n\\303\\257.txt"'), 'a/renamed ünï.txt');
  assert.equal(unquotePath('"tab\\tname \\"q\\" back\\\\slash"'), 'tab\tname "q" back\\slash');
  assert.equal(unquotePath('plain'), 'plain');
});

test('a truncated hunk ends without throwing and keeps what is there', () => {
  const text = fs.readFileSync(fixture('patch', 'git-t5100', 'patch0004'), 'utf8');
  const cut = text.split('\n').slice(0, 20).join('\n');
  const files = parseDiff(cut);
  assert.equal(files.length, 1);
  assert.equal(files[0].hunks[0].oldLines, 42);
  assert.equal(files[0].hunks[0].lines.length, 16);
  assert.deepEqual(parseDiff('@@ -1,3 +1,3 @@\n\\ No newline at end of file\n'), [
    { oldPath: null, newPath: null, path: '', isNew: false, isDeleted: false, isRename: false, isBinary: false, oldMode: null, newMode: null, oldBlob: null, newBlob: null,
      hunks: [{ header: '@@ -1,3 +1,3 @@', oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [] }] },
  ]);
});

async function fixturePatches(): Promise<{ name: string; patch: Patch }[]> {
  const out: { name: string; patch: Patch }[] = [];
  const dirs = ['patchwork', 'threads'];
  for (const d of dirs) {
    for (const name of fs.readdirSync(fixture('patch', d)).filter((n) => n.endsWith('.mbox'))) {
      for await (const raw of readMails([fixture('patch', d, name)])) {
        const p = extractPatch(await parseMail(raw));
        if (p) out.push({ name: `${d}/${name}#${raw.index}`, patch: p });
      }
    }
  }
  return out;
}

test('every fixture patch agrees with git apply --numstat, and base-commit is read', async () => {
  const patches = await fixturePatches();
  assert.ok(patches.length >= 18, `${patches.length} fixture patches`);
  for (const { name, patch } of patches) {
    // patchwork's 0009 is hand-made: a hunk under a rename with no ---/+++ lines, which git apply refuses.
    if (name.startsWith('patchwork/0009-')) continue;
    let out = '';
    try {
      const p0 = /^diff --git (?!"?a\/)/.test(patch.diffText) ? ['-p0'] : [];
      out = git(os.tmpdir(), ['apply', '--numstat', '-z', '--allow-empty', ...p0, '-'], patch.diffText);
    } catch (e) {
      assert.fail(`${name}: git apply rejects the extracted diff: ${String((e as { stderr?: string }).stderr ?? e)}`);
    }
    const rows = numstat(out);
    assert.equal(patch.files.length, rows.length, `${name}: file count`);
    patch.files.forEach((f, i) => {
      if (rows[i][0] === '-') assert.equal(f.isBinary, true, `${name}: ${f.path} binary`);
      else assert.deepEqual(counts(f), [Number(rows[i][0]), Number(rows[i][1])], `${name}: ${f.path} counts`);
    });
  }
  const fpos = patches.find((p) => p.name.startsWith('threads/liburing-test-file-position-v2'))!.patch;
  assert.equal(fpos.baseCommit, '20bb37e0f828909742f845b8113b2bb7e1065cd1');
  assert.ok(!fpos.diffText.includes('base-commit'));
  assert.equal(fpos.notes, 'v2:\n - fixed a bug in how cqe ordering was processed\n - enforce sequential reads for !IOSQE_IO_LINK');
  assert.equal(fpos.diffstat.split('\n').length, 4);
  assert.deepEqual(fpos.files.map((f) => [f.path, f.isNew]), [['test/Makefile', false], ['test/fpos.c', true]]);
  assert.deepEqual(fpos.files[0].hunks[0].lines.filter((l) => l.type === 'add').map((l) => [l.text, l.newLine]), [['\tfpos.c \\', 81]]);
  assert.deepEqual(fpos.files[1].hunks[0].lines.map((l) => l.newLine), Array.from({ length: 270 }, (_, i) => i + 1));
});
