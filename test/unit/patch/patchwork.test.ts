/**
 * patchwork's parser test mails (one message per file) with the expectations
 * patchwork's own test_parser.py has for them: where the diff starts, renames,
 * binary files, `\ No newline at end of file`, pull URLs, CVS diffs, mode
 * changes, empty new files, HTML parts ignored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../fixtures';
import { readMails } from '../../../src/core/mail/read';
import { parseMail } from '../../../src/core/mail/parse';
import { extractPatch } from '../../../src/core/patch/extract';
import { extractPull } from '../../../src/core/patch/pull';
import type { MailMessage, Patch } from '../../../src/core/model';

async function load(prefix: string): Promise<MailMessage> {
  const fs = await import('node:fs');
  const name = fs.readdirSync(fixture('patch', 'patchwork')).find((f) => f.startsWith(prefix));
  assert.ok(name, `fixture ${prefix}`);
  const msgs: MailMessage[] = [];
  for await (const raw of readMails([fixture('patch', 'patchwork', name)])) msgs.push(await parseMail(raw));
  assert.equal(msgs.length, 1, `${name} is one message`);
  return msgs[0];
}

async function patchOf(prefix: string): Promise<Patch> {
  const p = extractPatch(await load(prefix));
  assert.ok(p, `${prefix} carries a patch`);
  return p;
}

const count = (hay: string, needle: string) => hay.split(needle).length - 1;

const pulls: [string, string, string | null][] = [
  ['0001', 'git://git.kernel.org/pub/scm/linux/kernel/git/benh/powerpc.git', 'next'],
  ['0002', 'git://git.kernel.org/pub/scm/linux/kernel/git/benh/powerpc.git', 'next'],
  ['0004', 'git+ssh://git.kernel.org/pub/scm/linux/kernel/git/benh/powerpc.git', 'next'],
  ['0005', 'ssh://git.kernel.org/pub/scm/linux/kernel/git/benh/powerpc.git', 'next'],
  ['0006', 'http://git.kernel.org/pub/scm/linux/kernel/git/benh/powerpc.git', 'next'],
  ['0017', 'git://git.kernel.org/pub/scm/linux/kernel/git/davem/net', null],
  ['0023', 'https://git.kernel.org/pub/scm/linux/kernel/git/matthias.bgg/linux.git/', 'tags/v5.4-next-soc'],
  ['0024', 'git://git.kernel.org/pub/scm/linux/kernel/git/nsekhar/linux-davinci.git', 'tags/davinci-for-v5.6/soc'],
];
for (const [n, url, ref] of pulls) {
  test(`patchwork ${n}: pull request without a diff`, async () => {
    const msg = await load(n);
    assert.equal(extractPatch(msg), null);
    assert.ok(msg.body.trim().length > 0, 'message present');
    const pull = extractPull(msg);
    assert.deepEqual(pull && { url: pull.url, ref: pull.ref }, { url, ref });
    assert.equal(pull?.messageId, msg.messageId);
  });
}

test('patchwork 0003: pull request that also carries a diff', async () => {
  const msg = await load('0003');
  assert.deepEqual(extractPull(msg), { messageId: msg.messageId, url: 'git://git.kernel.org/pub/scm/linux/kernel/git/tip/linux-2.6-tip.git', ref: 'x86-fixes-for-linus' });
  const p = extractPatch(msg);
  assert.ok(p?.diffText.startsWith('diff --git a/arch/x86/include/asm/smp.h'));
  assert.doesNotMatch(p?.diffText ?? '', /mailing list|_{10}/, 'list footer is not part of the diff');
});

test('patchwork 0007: CVS-format diff starts with Index', async () => {
  const p = await patchOf('0007');
  assert.ok(p.diffText.startsWith('Index'));
  assert.deepEqual(p.files.map((f) => f.path), ['bfd/elf-bfd.h', 'bfd/elflink.c', 'bfd/elfxx-mips.c']);
  assert.deepEqual(p.files[0].hunks[0].lines.filter((l) => l.type === 'add').map((l) => l.newLine), [201, 202]);
});

test('patchwork 0008: pure rename', async () => {
  const p = await patchOf('0008');
  assert.equal(count(p.diffText, 'rename from'), 2);
  assert.equal(count(p.diffText, 'rename to'), 2);
  assert.ok(p.files.every((f) => f.isRename && f.hunks.length === 0));
  assert.equal(p.files[0].oldPath, 'package/rpi-userland/rpi-userland-add-pkgconfig-files.patch');
  assert.equal(p.files[0].newPath, 'package/rpi-userland/rpi-userland-000-add-pkgconfig-files.patch');
  assert.ok(p.commitBody.length > 0);
});

test('patchwork 0009: rename with one -a/+b change', async () => {
  const p = await patchOf('0009');
  assert.equal(count(p.diffText, 'rename from'), 2);
  assert.equal(count(p.diffText, 'rename to'), 2);
  const changes = p.files.flatMap((f) => f.hunks.flatMap((h) => h.lines.filter((l) => l.type !== 'context')));
  assert.deepEqual(changes, [
    { type: 'del', text: 'a', oldLine: 102, newLine: null },
    { type: 'add', text: 'b', oldLine: null, newLine: 102 },
  ]);
});

test('patchwork 0010: invalid charset still gives diff and message', async () => {
  const p = await patchOf('0010');
  assert.ok(p.diffText.startsWith('diff --git'));
  assert.ok(p.commitBody.length > 0);
});

test('patchwork 0011: no newline at end of file', async () => {
  const p = await patchOf('0011');
  assert.ok(p.diffText.startsWith('diff --git a/tools/testing/selftests/powerpc/Makefile'));
  assert.equal(count(p.diffText, '\\ No newline at end of file'), 2);
  assert.ok(p.diffText.endsWith('\\ No newline at end of file\n'));
  assert.ok(!p.commitBody.includes('No newline'));
  const link = p.files[1];
  assert.equal(link.path, 'tools/testing/selftests/powerpc/vphn/vphn.c');
  assert.equal(link.isNew, true);
  assert.equal(link.newMode, '120000');
  assert.deepEqual(link.hunks[0].lines, [
    { type: 'add', text: '../../../../../arch/powerpc/mm/vphn.c', oldLine: null, newLine: 1, noNewlineAtEnd: true },
  ]);
});

for (const n of ['0012', '0013', '0014', '0015']) {
  test(`patchwork ${n}: header oddities still give exactly one patch`, async () => {
    const p = await patchOf(n);
    assert.equal(p.files.length, 1);
  });
}

test('patchwork 0016: empty subject, diff and message still present', async () => {
  const p = await patchOf('0016');
  assert.equal(p.commitTitle, '');
  assert.ok(p.commitBody.startsWith('Rename patches'));
  assert.equal(p.files.length, 2);
});

test('patchwork 0019: multipart patch, HTML part ignored', async () => {
  const p = await patchOf('0019');
  assert.ok(!p.diffText.includes('<div') && !p.commitBody.includes('<div'));
  assert.deepEqual(p.files.map((f) => f.path), ['patchwork/parser.py']);
});

test('patchwork 0020: multipart reply is a comment, not a patch', async () => {
  const msg = await load('0020');
  assert.equal(extractPatch(msg), null);
  assert.ok(msg.body.trim().length > 0 && !msg.body.includes('<div'));
});

test('patchwork 0021: empty new file', async () => {
  const p = await patchOf('0021');
  assert.deepEqual(
    p.files.map((f) => [f.path, f.isNew, f.oldPath, f.newMode, f.hunks.length]),
    [['banana', true, null, '100644', 0]],
  );
  assert.match(p.diffstat, /create mode 100644 banana/);
  assert.ok(!p.diffText.includes('snowpatch mailing list'));
});

test('patchwork 0022: mode change only', async () => {
  const p = await patchOf('0022');
  assert.deepEqual(
    p.files.map((f) => [f.path, f.oldMode, f.newMode, f.isNew, f.hunks.length]),
    [['scripts/kconfig/nconf-cfg.sh', '100644', '100755', false, 0]],
  );
});

test('patchwork 0025: binary file added, no a/ b/ prefixes', async () => {
  const p = await patchOf('0025');
  assert.ok(p.diffText.startsWith('diff --git pixel.bmp pixel.bmp'));
  for (const s of ['GIT binary patch', 'literal 142', 'literal 0']) assert.ok(p.diffText.includes(s), s);
  assert.deepEqual(p.files.map((f) => [f.path, f.isBinary, f.isNew]), [['pixel.bmp', true, true]]);
});

test('patchwork 0026: binary and text files mixed', async () => {
  const p = await patchOf('0026');
  assert.ok(p.diffText.startsWith('diff --git pixel.bmp pixel.bmp'));
  assert.ok(p.diffText.includes('GIT binary patch') && p.diffText.includes('diff --git quit.sh quit.sh'));
  assert.deepEqual(p.files.map((f) => [f.path, f.isBinary]), [['pixel.bmp', true], ['quit.sh', false]]);
  assert.deepEqual(p.files[1].hunks[0].lines.map((l) => l.newLine), [1, 2, 3]);
});

test('patchwork 0027: binary file modified', async () => {
  const p = await patchOf('0027');
  assert.ok(p.diffText.startsWith('diff --git pixel.bmp pixel.bmp'));
  for (const s of ['GIT binary patch', 'literal 0', 'literal 142']) assert.ok(p.diffText.includes(s), s);
  const f = p.files[0];
  assert.deepEqual([f.path, f.isBinary, f.isNew, f.oldBlob, f.newBlob, f.oldMode], [
    'pixel.bmp', true, false, '9710347a13c4336e7dbaafa69af0e44a40c21172', 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', '100644',
  ]);
});
