/** The list of `kernel-review` subcommands; each lives in its own file. */
import { CliCommand } from './command';
import { threadsCommand } from './threads';

export const commands: CliCommand[] = [threadsCommand];
