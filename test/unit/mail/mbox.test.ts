import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fixture } from '../fixtures';
import { splitMbox } from '../../../src/core/mail/mbox';

async function split(data: Buffer, size: number) {
  async function* chunks() {
    for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
  }
  const out = [];
  for await (const m of splitMbox(chunks())) out.push(m);
  return out;
}

for (const file of ['threads/liburing-splice-helpers-v2.mbox', 'patch/git-t5100/sample.mbox', 'mail/git-t5100/sample.mboxrd', 'mail/git-t5100/quoted-cr.mbox']) {
  test(`splitting ${file} does not depend on where the input is cut into chunks`, async () => {
    const data = fs.readFileSync(fixture(...file.split('/')));
    const whole = await split(data, data.length);
    assert.ok(whole.length >= 2);
    for (const size of [1, 2, 5, 6, 7, 64, 1000, 4093]) {
      const parts = await split(data, size);
      assert.equal(parts.length, whole.length, `chunk size ${size}`);
      parts.forEach((m, i) => {
        assert.equal(m.envelope, whole[i].envelope);
        assert.ok(m.bytes.equals(whole[i].bytes), `message ${i} with chunk size ${size}`);
      });
    }
  });
}

test('messages end without the blank separator line and keep their own last newline', async () => {
  const data = Buffer.from('From a@b Mon Jan  1 00:00:00 2024\nSubject: 1\n\nbody 1\n\nFrom a@b Mon Jan  1 00:00:00 2024\nSubject: 2\n\nbody 2\n');
  const m = await split(data, 3);
  assert.deepEqual(m.map((x) => x.bytes.toString()), ['Subject: 1\n\nbody 1\n', 'Subject: 2\n\nbody 2\n']);
  assert.equal(m[1].unterminated, false);
  const cut = await split(data.subarray(0, data.length - 3), 4);
  assert.equal(cut[1].unterminated, true);
});
