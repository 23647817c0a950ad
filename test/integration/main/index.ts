import { runMochaIn } from '../support/mocha';

/** Entry point VS Code's test runner calls inside the extension host. */
export function run(): Promise<void> {
  return runMochaIn(__dirname);
}
