import type { Argv } from 'yargs';
import type { Declaration } from './declaration.js';

export interface RulesArgs {
  json: boolean;
  markdown: boolean;
}

export const RULES_DECLARATION: Declaration<RulesArgs> = {
  command: 'rules',
  describe: 'List the catalog of rules: id, level, title and sentence',
  builder: (yargs: Argv<object>) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print the catalog as JSON' })
      .option('markdown', { type: 'boolean', default: false, describe: 'Print the catalog as a Markdown table (the one in docs/rules.md)' }) as unknown as Argv<RulesArgs>,
};
