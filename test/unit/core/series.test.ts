import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fixture } from '../fixtures';
import { loadThreads } from '../../../src/core/load';
import { Series } from '../../../src/core/model';

interface Expect {
  patches: number[];
  covers: number[];
  versions?: number[];
  complete?: boolean[];
}

const expected: Record<string, Expect> = JSON.parse(fs.readFileSync(fixture('series', 'expected.json'), 'utf8'));

function firstTime(s: Series): number {
  const times = [...s.patches.map((p) => p.date?.getTime() ?? 0), s.cover?.date?.getTime() ?? Infinity];
  return Math.min(...times);
}

for (const [file, want] of Object.entries(expected)) {
  for (const light of [false, true]) {
    test(`patchwork series ${file}${light ? ' (light)' : ''}: series split as patchwork expects`, async () => {
      const threads = await loadThreads([fixture('series', file)], { light });
      const series = threads.flatMap((t) => t.series).sort((a, b) => firstTime(a) - firstTime(b));
      assert.deepEqual(series.map((s) => s.patches.length), want.patches, 'patches per series');
      assert.deepEqual(series.map((s) => (s.cover ? 1 : 0)), want.covers, 'covers per series');
      if (want.versions) assert.deepEqual(series.map((s) => s.version), want.versions, 'versions');
      if (want.complete) assert.deepEqual(series.map((s) => s.complete), want.complete, 'complete');
    });
  }
}

test('unthreaded series are stitched into one thread', async () => {
  const threads = await loadThreads([fixture('series', 'base-no-references.mbox')]);
  assert.equal(threads.length, 1);
  assert.equal(threads[0].messages.length, 2);
});
