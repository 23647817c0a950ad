/**
 * Accuracy and precision of comment anchoring against hand-labelled threads:
 * the tuning set (test/fixtures/review/tuning), the held-out set
 * (test/fixtures/review/heldout, labelled independently) and the blind set
 * (test/fixtures/review/blind, labelled without the code ever having run on
 * those threads), scored separately.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadThreads } from '../../../src/core/load';
import { extractComments } from '../../../src/core/review';
import { fixture } from '../fixtures';
import { Score, accuracy, add, empty, labelledThreads, loadExpected, precision, score } from './labels';

const MIN_ACCURACY = 0.98;
const MIN_PRECISION = 0.97;

async function scoreSet(set: string): Promise<{ total: Score; threads: number }> {
  let total = empty();
  const threads = labelledThreads(fixture('review', set));
  for (const t of threads) {
    const expected = loadExpected(t.expected);
    const reported = (await loadThreads([t.mbox])).flatMap(extractComments);
    const s = score(expected, reported);
    total = add(total, s);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    console.log(`  ${set}/${t.name}: ${s.right}/${s.labelled} right, precision ${pct(precision(s))}`);
    for (const m of [...s.misses, ...s.extras]) console.log(`    ${m}`);
  }
  return { total, threads: threads.length };
}

// REVIEW_LABEL_SETS=tuning limits the run to one set (while tuning, the held-out set stays unseen).
const sets = (process.env.REVIEW_LABEL_SETS ?? 'tuning,heldout,blind').split(',').filter(Boolean);

for (const set of sets) {
  test(`comment anchoring on the ${set} set: accuracy >= 98 %, precision >= 97 %`, async (t) => {
    const { total, threads } = await scoreSet(set);
    if (threads === 0) {
      t.skip(`no labelled threads in test/fixtures/review/${set}`);
      return;
    }
    const acc = accuracy(total);
    const prec = precision(total);
    console.log(
      `${set}: ${threads} threads, ${total.labelled} labelled comments, accuracy ${(acc * 100).toFixed(1)} % ` +
        `(${total.right}/${total.labelled}), precision ${(prec * 100).toFixed(1)} % ` +
        `(${total.matchedInExhaustive}/${total.reportedInExhaustive})`,
    );
    assert.ok(acc >= MIN_ACCURACY, `${set} accuracy ${(acc * 100).toFixed(1)} % is below 98 %`);
    assert.ok(prec >= MIN_PRECISION, `${set} precision ${(prec * 100).toFixed(1)} % is below 97 %`);
  });
}
