import type { CommandModule } from 'yargs';
import { RULES } from '../api/catalog.js';
import type { CommandResult } from './command-result.js';
import { RULES_DECLARATION, type RulesArgs } from './declarations/rules.js';

export function rulesCommand(result: CommandResult): CommandModule<object, RulesArgs> {
  return {
    ...RULES_DECLARATION,
    handler: (args) => {
      process.stdout.write(args.json ? `${JSON.stringify(catalogJson(), null, 2)}\n` : args.markdown ? catalogMarkdown() : catalogText());
      result.exitCode = 0;
    },
  };
}

function catalogJson(): Array<Record<string, unknown>> {
  return RULES.map((rule) => ({ id: rule.id, level: rule.level, section: rule.section, title: rule.title, sentence: rule.sentence }));
}

function catalogText(): string {
  const width = Math.max(...RULES.map((rule) => rule.id.length));
  const lines = RULES.map((rule) => {
    return `${rule.id.padEnd(width)}  ${rule.level.padEnd(6)}  ${rule.title}\n${' '.repeat(width + 10)}${rule.sentence}`;
  });
  return `${lines.join('\n')}\n`;
}

/** The catalog as the Markdown table README.md holds; a test keeps the two the same. */
export function catalogMarkdown(): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = RULES.map((rule) => `| \`${rule.id}\` | ${rule.level} | ${cell(rule.title)} | ${cell(rule.sentence)} |`);
  return ['| id | level | title | rule |', '|---|---|---|---|', ...rows, ''].join('\n');
}
