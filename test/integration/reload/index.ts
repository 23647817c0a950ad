import { runMochaIn } from '../support/mocha';

/** Second launch of the same workspace: what the first launch stored must be back. */
export function run(): Promise<void> {
  return runMochaIn(__dirname);
}
