import { CliCommand } from './command';

export const threadsCommand: CliCommand = {
  name: 'threads',
  summary: 'list the threads and patch series in the inputs',
  usage: 'usage: kernel-review threads <input>... [--json]\n',
  valueOptions: [],
  flagOptions: ['json'],
  async run() {
    throw new Error('not implemented yet');
  },
};
