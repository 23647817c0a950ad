/**
 * extractPatch on the mail shapes patchwork's parser tests build around its
 * two raw diffs (patches/0001-add-line.patch, 0002-utf-8.patch): the diff
 * inline, as a text/x-patch or text/x-diff attachment with and without a
 * charset, and after a `---` note. The extracted diff must be byte-identical
 * to the file and the commit message the text before it. Also the in-body
 * `From:` and scissors helpers, and `git format-patch --interdiff` output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fixture } from '../fixtures';
import { parseMail } from '../../../src/core/mail/parse';
import { extractPatch, isScissors, parseInBodyFrom } from '../../../src/core/patch/extract';
import type { MailMessage } from '../../../src/core/model';

const addLine = fs.readFileSync(fixture('patch', 'patchwork-patches', '0001-add-line.patch'), 'utf8');
const utf8 = fs.readFileSync(fixture('patch', 'patchwork-patches', '0002-utf-8.patch'), 'utf8');

const HEAD = [
  'From: Test Author <test@example.com>',
  'To: list@example.com',
  'Subject: [PATCH] Test subject',
  'Date: Tue, 30 Aug 2022 11:19:07 -0400',
  'Message-Id: <test-patch@example.com>',
  'MIME-Version: 1.0',
];

async function mail(lines: string[]): Promise<MailMessage> {
  return parseMail({ bytes: Buffer.from(lines.join('\n'), 'utf8'), source: 'test', index: 0 });
}

function multipart(partHeaders: string[]): string[] {
  return [
    ...HEAD,
    'Content-Type: multipart/mixed; boundary="XXX"',
    '',
    '--XXX',
    'Content-Type: text/plain; charset="utf-8"',
    '',
    'Test comment',
    '',
    '--XXX',
    ...partHeaders,
    '',
    addLine.replace(/\n$/, ''),
    '--XXX--',
    '',
  ];
}

test('inline diff: diff byte-identical, message is the text before it', async () => {
  const msg = await mail([...HEAD, 'Content-Type: text/plain; charset=utf-8', '', 'Test comment', '', addLine]);
  const p = extractPatch(msg);
  assert.equal(p?.diffText, addLine);
  assert.equal(p?.commitBody, 'Test comment');
  assert.equal(p?.commitTitle, 'Test subject');
  assert.deepEqual(p?.files[0].hunks[0].lines, [
    { type: 'context', text: 'meep', oldLine: 1, newLine: 1 },
    { type: 'add', text: 'meep', oldLine: null, newLine: 2 },
  ]);
});

for (const [label, headers] of [
  ['text/x-patch', ['Content-Type: text/x-patch']],
  ['text/x-patch with charset', ['Content-Type: text/x-patch; charset="utf-8"']],
  ['text/x-diff', ['Content-Type: text/x-diff']],
  ['attachment named .patch', ['Content-Type: text/plain', 'Content-Disposition: attachment; filename="0001-add-line.patch"']],
] as [string, string[]][]) {
  test(`diff in an attachment (${label})`, async () => {
    const msg = await mail(multipart(headers));
    const p = extractPatch(msg);
    assert.ok(p, 'patch found');
    assert.equal(p.diffText, addLine);
    assert.equal(p.commitBody, 'Test comment');
  });
}

test('a --- note between message and diff goes to notes', async () => {
  const msg = await mail([...HEAD, 'Content-Type: text/plain; charset=utf-8', '', 'Test comment', '---', 'Update: test update', '', addLine]);
  const p = extractPatch(msg);
  assert.equal(p?.commitBody, 'Test comment');
  assert.equal(p?.notes, 'Update: test update');
  assert.equal(p?.diffText, addLine);
});

test('UTF-8 diff content round-trips', async () => {
  const msg = await mail([...HEAD, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', 'Test comment', '', utf8]);
  const p = extractPatch(msg);
  assert.equal(p?.diffText, utf8);
  assert.equal(p?.files[0].hunks[0].lines[1].text, 'meëp');
});

test('a mail with no diff gives null', async () => {
  const msg = await mail([...HEAD, 'Content-Type: text/plain', '', 'Looks good to me.', '', 'Reviewed-by: A <a@example.com>', '']);
  assert.equal(extractPatch(msg), null);
});

test('isScissors follows git: dashes plus >8/8< marks, at least 8 wide', () => {
  for (const yes of ['-- >8 --', '-- 8< --', ' - - >8 - - please remove everything above this line - - >8 - -', '------------------------ >8 ------------------------']) {
    assert.equal(isScissors(yes), true, yes);
  }
  for (const no of [' This line is not a scissors mark -- >8 -- but talks about it.', '-->8', '---', '>8 >8']) {
    assert.equal(isScissors(no), false, no);
  }
});

test('parseInBodyFrom accepts the forms git accepts and rejects bogus ones', () => {
  assert.deepEqual(parseInBodyFrom('Another Thor <a.thor@example.com>'), { name: 'Another Thor', address: 'a.thor@example.com' });
  assert.deepEqual(parseInBodyFrom('"Yann E. MORIN" <yann@example.org>'), { name: 'Yann E. MORIN', address: 'yann@example.org' });
  assert.deepEqual(parseInBodyFrom('a.u.thor@example.com (A U Thor)'), { name: 'A U Thor', address: 'a.u.thor@example.com' });
  assert.deepEqual(parseInBodyFrom('bare@example.com'), { name: '', address: 'bare@example.com' });
  assert.equal(parseInBodyFrom('bogosity - a list - of stuff'), null);
});

test('git format-patch --interdiff: the interdiff stays in the notes, the real diff is the patch', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpr-interdiff-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir, encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'A U Thor', GIT_AUTHOR_EMAIL: 'author@example.com', GIT_COMMITTER_NAME: 'C', GIT_COMMITTER_EMAIL: 'c@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: dir },
    });
  try {
    git('init', '-q');
    fs.writeFileSync(path.join(dir, 'f.c'), 'one\ntwo\nthree\n');
    git('add', 'f.c');
    git('commit', '-qm', 'base');
    git('tag', 'base');
    fs.writeFileSync(path.join(dir, 'f.c'), 'one\n2\nthree\n');
    git('commit', '-qam', 'change two\n\nSigned-off-by: A U Thor <author@example.com>');
    git('tag', 'v1');
    git('reset', '-q', '--hard', 'base');
    fs.writeFileSync(path.join(dir, 'f.c'), 'one\nTWO\nthree\n');
    git('commit', '-qam', 'change two\n\nSigned-off-by: A U Thor <author@example.com>');
    const mailText = git('format-patch', '--stdout', '--interdiff=v1', '-1');
    const realDiff = git('diff', '--full-index', 'HEAD~1', 'HEAD');
    assert.match(mailText, /^Interdiff(?: against v1)?:$/m);
    return parseMail({ bytes: Buffer.from(mailText.replace(/^From [0-9a-f]{40} .*\n/, '')), source: 'format-patch', index: 0 }).then((msg) => {
      const p = extractPatch(msg);
      assert.ok(p);
      assert.equal(p.diffText.replace(/^index .*\n/m, ''), realDiff.replace(/^index .*\n/m, ''));
      assert.match(p.notes, /^Interdiff/);
      assert.deepEqual(p.files.map((f) => f.path), ['f.c']);
      assert.deepEqual(p.files[0].hunks[0].lines.filter((l) => l.type !== 'context').map((l) => l.text), ['two', 'TWO']);
      assert.deepEqual(p.trailers.map((t) => t.name), ['Signed-off-by']);
    });
  } finally {
    setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 0);
  }
});

test('git format-patch --cover-letter --interdiff: the cover letter is not a patch', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpr-cover-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir, encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: dir },
    });
  try {
    git('init', '-q');
    fs.writeFileSync(path.join(dir, 'f'), 'one\ntwo\n');
    git('add', 'f');
    git('commit', '-qm', 'base');
    git('tag', 'base');
    fs.writeFileSync(path.join(dir, 'f'), 'one\n2\n');
    git('commit', '-qam', 'v1');
    git('tag', 'v1');
    git('reset', '-q', '--hard', 'base');
    fs.writeFileSync(path.join(dir, 'f'), 'one\nTWO\n');
    git('commit', '-qam', 'v2');
    fs.writeFileSync(path.join(dir, 'g'), 'x\n');
    git('add', 'g');
    git('commit', '-qm', 'two');
    const all = git('format-patch', '--stdout', '--cover-letter', '--interdiff=v1', '-2');
    const [cover] = all.split(/^From [0-9a-f]{40} .*\n/m).filter(Boolean);
    assert.match(cover, /^Interdiff:\ndiff --git/m);
    return parseMail({ bytes: Buffer.from(cover), source: 'format-patch', index: 0 }).then((msg) => {
      assert.match(msg.subject, /^\[PATCH 0\/2\]/);
      assert.equal(extractPatch(msg), null);
    });
  } finally {
    setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 0);
  }
});
