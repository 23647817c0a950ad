/**
 * b4's follow-up trailer samples: a patch (or series) plus replies carrying
 * trailers, and the am-ready mbox b4 writes with default options. For every
 * patch in the expected output, its own trailers (parseTrailers on the commit
 * message) followed by the trailers its replies gave (findReplyTrailers with
 * the replier as `from`) must equal the trailer block b4 wrote.
 *
 * Attribution rule used here (the one series building applies): a reply's
 * trailers go to the patch it answers (following In-Reply-To up the thread);
 * a reply to the cover letter applies to every patch. In a partial reroll the
 * newest version of each patch number is the one kept, and the old version's
 * follow-ups stay with the old version.
 *
 * The refs end some trailer blocks with `Signed-off-by: Test Override`, the
 * sign-off of the user b4's test suite runs as; it is not in the thread and is
 * left out of the comparison.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fixture } from '../fixtures';
import { readMails } from '../../../src/core/mail/read';
import { parseMail } from '../../../src/core/mail/parse';
import { extractPatch } from '../../../src/core/patch/extract';
import { findReplyTrailers, parseTrailers } from '../../../src/core/patch/trailers';
import { parseSubject } from '../../../src/core/patch/subject';
import type { MailMessage, Patch, Trailer } from '../../../src/core/model';

const b4 = (name: string) => fixture('patch', 'b4', name);

async function loadMbox(file: string): Promise<MailMessage[]> {
  const out: MailMessage[] = [];
  for await (const raw of readMails([file])) out.push(await parseMail(raw));
  return out;
}

/** Expected: Message-ID → trailer lines of that patch in b4's output. */
function expected(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of fs.readFileSync(file, 'utf8').split(/^From git@z .*$/m).slice(1)) {
    const id = /^Message-Id: (\S+)$/im.exec(part)?.[1];
    assert.ok(id, 'ref message has a Message-Id');
    const body = part.slice(part.indexOf('\n\n') + 2).split('\n');
    const end = body.findIndex((l) => /^(---$|diff |--- )/.test(l));
    const msg = body.slice(0, end < 0 ? body.length : end).join('\n').trimEnd().split('\n');
    let start = msg.length;
    while (start > 0 && msg[start - 1] !== '') start--;
    out.set(id, msg.slice(start).filter((l) => !l.includes('Test Override')));
  }
  return out;
}

interface Collected {
  patches: Patch[];
  replyTrailers: Map<string, Trailer[]>;
}

function collect(msgs: MailMessage[], sloppy = false): Collected {
  const byId = new Map(msgs.map((m) => [m.messageId, m]));
  const patches: Patch[] = [];
  const patchIds = new Set<string>();
  for (const m of msgs) {
    const p = extractPatch(m);
    if (p) {
      patches.push(p);
      patchIds.add(m.messageId);
    }
  }
  const replyTrailers = new Map<string, Trailer[]>();
  for (const m of msgs) {
    if (patchIds.has(m.messageId) || !m.inReplyTo) continue;
    const found = findReplyTrailers(m.body, m.messageId, { from: m.from, sloppy });
    let target: string | null = m.inReplyTo;
    while (target && !patchIds.has(target) && byId.get(target)?.inReplyTo && parseSubject(byId.get(target)!.subject).index !== 0) {
      target = byId.get(target)!.inReplyTo;
    }
    if (!target) continue;
    const isCover = !patchIds.has(target);
    const targets = isCover ? [...patchIds] : [target];
    for (const t of targets) replyTrailers.set(t, [...(replyTrailers.get(t) ?? []), ...found]);
  }
  return { patches, replyTrailers };
}

function lines(ts: Trailer[]): string[] {
  const seen = new Set<string>();
  return ts.map((t) => `${t.name}: ${t.value}`).filter((l) => !seen.has(l) && seen.add(l));
}

const cases: [string, string][] = [
  ['single', 'defaults'], ['single', 'sloppy'], ['htmljunk', 'defaults'], ['name-parens', 'defaults'],
  ['bare-address', 'defaults'], ['stripped-lines', 'defaults'], ['with-diffstat', 'defaults'], ['nore', 'defaults'],
  ['with-cover', 'defaults'], ['partial-reroll', 'defaults'], ['non-git-patch', 'defaults'],
  ['non-git-patch-with-comments', 'defaults'],
];

for (const [src, variant] of cases) {
  test(`b4 trailers-followup-${src} (${variant})`, async () => {
    const msgs = await loadMbox(b4(`trailers-followup-${src}.mbox`));
    const { patches, replyTrailers } = collect(msgs, variant === 'sloppy');
    const want = expected(b4(`trailers-followup-${src}-ref-${variant}.txt`));
    assert.ok(want.size > 0);
    for (const [id, wantLines] of want) {
      const p = patches.find((x) => x.messageId === id);
      assert.ok(p, `patch ${id} found`);
      const got = lines([...p.trailers, ...(replyTrailers.get(id) ?? [])]);
      assert.deepEqual(got, wantLines, `trailers of ${id}`);
    }
  });
}

test('b4 single: quoted and mismatched trailers are not taken', async () => {
  const msgs = await loadMbox(b4('trailers-followup-single.mbox'));
  const r2 = msgs.find((m) => m.messageId === '<fwup-message-2@example.com>')!;
  // The quoted "> Reviewed-by: Followup Reviewer1 <reviewer1@…>" is not the replier's.
  assert.deepEqual(lines(findReplyTrailers(r2.body, r2.messageId, { from: r2.from })), ['Tested-by: Followup Reviewer2 <followup-reviewer2@example.com>']);
  const r3 = msgs.find((m) => m.messageId === '<fwup-message-3@example.com>')!;
  assert.deepEqual(findReplyTrailers(r3.body, r3.messageId, { from: r3.from }), []);
  assert.deepEqual(lines(findReplyTrailers(r3.body, r3.messageId)), ['Reviewed-by: Mismatched Reviewer1 <mismatched-reviewer1@example.net>']);
});

test('b4 partial reroll: v2 2/2 follow-up stays on v2 2/2, cover trailer reaches v3 2/2', async () => {
  const msgs = await loadMbox(b4('trailers-followup-partial-reroll.mbox'));
  const { replyTrailers } = collect(msgs);
  assert.deepEqual(lines(replyTrailers.get('<patch-2-message@example.com>') ?? []), [
    'Reviewed-by: Followup Reviewer1 <followup-reviewer1@example.com>',
    'Reviewed-by: Coverletter Reviewer1 <followup-reviewer1@example.com>',
  ]);
  assert.deepEqual(lines(replyTrailers.get('<patch-v3-2-message@example.com>') ?? []), [
    'Reviewed-by: Coverletter Reviewer1 <followup-reviewer1@example.com>',
  ]);
});
