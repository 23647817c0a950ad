/**
 * git's own mailinfo test data (t/t5100): for each message of sample.mbox,
 * author, subject, commit message and patch must split the way
 * `git mailinfo -u --scissors` splits them (expected files infoNNNN,
 * msgNNNN, patchNNNN; msg/info 0014 from the `--scissors` variants).
 *
 * sample.mbox is read with the project's readMails (it must find the 18
 * messages `git mailsplit` finds; some `From ` lines follow a non-blank
 * line) and each message decoded with parseMail.
 *
 * Deliberate differences from git, checked below rather than skipped:
 * - commitBody has leading/trailing blank lines removed (git leaves that to
 *   `git am`'s stripspace); inner text is byte-identical.
 * - diffText stops before the `-- ` signature (git's PATCH keeps it; git apply
 *   ignores it). notes/diffstat carry the `---` part git puts in PATCH.
 * - 0015: an in-body `From:` with no address is consumed but does not replace
 *   the author (git outputs an empty author). 0016: an unparseable in-body
 *   `Date:` keeps the mail's date (git passes `bogus` through).
 * - Mails without a diff (0007, 0008, 0013) give no Patch at all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fixture } from '../fixtures';
import { readMails } from '../../../src/core/mail/read';
import { parseMail } from '../../../src/core/mail/parse';
import { extractPatch } from '../../../src/core/patch/extract';
import type { MailMessage } from '../../../src/core/model';

const dir = (name: string) => fixture('patch', 'git-t5100', name);

function info(n: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of fs.readFileSync(dir(`info${n}`), 'utf8').split('\n')) {
    const m = /^(\w+): ?(.*)$/.exec(l);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

function trimBlank(s: string): string {
  return s.replace(/^(\s*\n)+/, '').replace(/(\n\s*)+$/, '');
}

/** git's PATCH from the first diff line on, without the trailing `-- ` signature. */
function expectedDiff(patch: string): string {
  const lines = patch.split('\n');
  const start = lines.findIndex((l) => /^(diff -|Index: )/.test(l) || (l.startsWith('--- ') && l !== '--- '));
  let end = lines.lastIndexOf('-- ');
  if (end < start) end = lines.length;
  return trimBlank(lines.slice(start, end).join('\n')) + '\n';
}

async function loadSample(): Promise<MailMessage[]> {
  const out: MailMessage[] = [];
  for await (const raw of readMails([dir('sample.mbox')])) out.push(await parseMail(raw));
  return out;
}
const sample = loadSample();

test('sample.mbox splits into 18 messages like git mailsplit', async () => {
  assert.equal((await sample).length, 18);
});

for (let i = 1; i <= 18; i++) {
  const n = String(i).padStart(4, '0');
  const variant = i === 14 ? '--scissors' : '';
  test(`t5100 message ${n}`, async () => {
    const msg = (await sample)[i - 1];
    const patch = extractPatch(msg);
    const wantPatch = fs.readFileSync(dir(`patch${n}${variant}`), 'utf8');
    if (wantPatch === '') {
      assert.equal(patch, null, 'a mail without a diff is not a patch');
      return;
    }
    assert.ok(patch, 'mail with a diff gives a patch');
    const inf = info(n + variant);
    assert.equal(patch.commitTitle, inf.Subject);
    if (i === 15) {
      assert.equal(inf.Email, '');
      assert.equal(patch.author.address, 'a.u.thor@example.com');
    } else {
      assert.equal(patch.author.address, inf.Email);
      // RFC 822 comments in From: ("A (zzz) U Thor (Comment)") are the mail parser's business; compare without them.
      const bare = (s: string) => s.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
      if (i === 1) assert.equal(bare(patch.author.name), bare(inf.Author));
      else assert.equal(patch.author.name, inf.Author);
    }
    if (i === 16) assert.equal(inf.Date.trim(), 'bogus');
    else assert.equal(patch.date?.getTime(), new Date(inf.Date.replace(/ \([A-Z]+\)$/, '')).getTime());
    assert.equal(patch.commitBody, trimBlank(fs.readFileSync(dir(`msg${n}${variant}`), 'utf8')));
    assert.equal(patch.diffText, expectedDiff(wantPatch));
    for (const l of patch.diffstat.split('\n').filter(Boolean)) assert.ok(wantPatch.split('\n').includes(l), `diffstat line ${l}`);
    assert.ok(patch.files.length > 0);
  });
}

test('t5100 0005: the text between the diffstat and the diff is kept as notes', async () => {
  const patch = extractPatch((await sample)[4]);
  assert.equal(patch?.notes, '50452f9c0c2df1f04d83a26266ba704b13861632');
  assert.deepEqual(patch?.files.map((f) => f.path), ['Documentation/git-cvsimport-script.txt', 'git-cvsimport-script']);
});

test('t5100 0014: scissors drop the discussion and its in-body headers above them', async () => {
  const patch = extractPatch((await sample)[13]);
  assert.equal(patch?.author.name, 'Junio C Hamano');
  assert.doesNotMatch(patch?.commitBody ?? '', /BLAH/);
  assert.deepEqual(patch?.trailers.map((t) => `${t.name}: ${t.value}`), ['Signed-off-by: Junio C Hamano <gitster@pobox.com>']);
});
