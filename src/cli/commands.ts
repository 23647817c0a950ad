/** The list of `kernel-review` subcommands; each lives in its own file. */
import { CliCommand } from './command';
import { threadsCommand } from './threads';
import { applyCommand } from './apply';
import { annotateCommand } from './annotate';
import { replyCommand } from './reply';
import { fetchCommand } from './fetch';
import { commentsCommand } from './comments';

export const commands: CliCommand[] = [threadsCommand, commentsCommand, applyCommand, annotateCommand, replyCommand, fetchCommand];
