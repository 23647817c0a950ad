#!/usr/bin/env node
// Provenance: the offline VS Code test recipe, harness/code-shim.js, adapted to forward
// --user-data-dir= and --extensions-dir= to run-tests.js.
// A stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }).
// It accepts the desktop CLI args runTests passes (--extensionDevelopmentPath=, --extensionTestsPath=,
// a folder positional, --user-data-dir=, --extensions-dir=, Electron flags) and runs the tests in
// code-server via run-tests.js instead. Exit code is passed through.
const { spawnSync } = require('child_process');
const path = require('path');
let dev, tests, folder; const extra = [];
for (const a of process.argv.slice(2)) {
  let m;
  if ((m = a.match(/^--extensionDevelopmentPath=(.*)$/))) dev = m[1];
  else if ((m = a.match(/^--extensionTestsPath=(.*)$/))) tests = m[1];
  else if ((m = a.match(/^--(user-data-dir|extensions-dir)=(.*)$/))) extra.push('--' + m[1], m[2]);
  else if (!a.startsWith('-')) folder = a;            // workspace folder passed via launchArgs
}
if (!dev || !tests) { console.error('code-shim: need --extensionDevelopmentPath and --extensionTestsPath'); process.exit(2); }
const r = spawnSync(process.execPath, [path.join(__dirname, 'run-tests.js'),
  '--extensionDevelopmentPath', dev, '--extensionTestsPath', tests, '--folder', folder || dev,
  '--timeout', process.env.VSC_TEST_TIMEOUT || '180', ...extra], { stdio: 'inherit' });
process.exit(r.status === null ? 2 : r.status);
