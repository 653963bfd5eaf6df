import type { Argv, CommandModule } from 'yargs';
import { RULES } from '../rules/index.js';
import { isDriven } from '../rules/judgement.js';
import type { CommandResult } from './command-result.js';

interface RulesArgs {
  json: boolean;
}

export function rulesCommand(result: CommandResult): CommandModule<object, RulesArgs> {
  return {
    command: 'rules',
    describe: 'List the catalog of rules: id, level, title and sentence',
    builder: (yargs: Argv<object>) => yargs.option('json', { type: 'boolean', default: false, describe: 'Print the catalog as JSON' }) as unknown as Argv<RulesArgs>,
    handler: (args) => {
      process.stdout.write(args.json ? `${JSON.stringify(catalogJson(), null, 2)}\n` : catalogText());
      result.exitCode = 0;
    },
  };
}

function catalogJson(): Array<Record<string, unknown>> {
  return RULES.map((rule) => ({ id: rule.id, level: rule.level, section: rule.section, title: rule.title, sentence: rule.sentence, judged: isDriven(rule) }));
}

function catalogText(): string {
  const width = Math.max(...RULES.map((rule) => rule.id.length));
  const lines = RULES.map((rule) => {
    const note = isDriven(rule) ? '' : '  (not exercised yet)';
    return `${rule.id.padEnd(width)}  ${rule.level.padEnd(6)}  ${rule.title}${note}\n${' '.repeat(width + 10)}${rule.sentence}`;
  });
  return `${lines.join('\n')}\n`;
}
