/// <reference types="mocha" />
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

/**
 * Runs every `*.test.js` bundle in `dir` (not recursive) with mocha's tdd UI: the `run()` contract
 * of VS Code's extension test runner. Resolves when all passed, rejects otherwise.
 */
export function runMochaIn(dir: string): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000 });
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(dir, f));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const s = runner.stats;
      console.log(`MOCHA_SUMMARY ${JSON.stringify({ passed: s?.passes, failed: failures, total: s?.tests })}`);
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed.`));
      else resolve();
    });
  });
}
