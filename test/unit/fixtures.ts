import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root: the nearest folder above this file that holds package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = up;
  }
}

/** Absolute path of a file under test/fixtures. */
export function fixture(...parts: string[]): string {
  return path.join(repoRoot(), 'test/fixtures', ...parts);
}
