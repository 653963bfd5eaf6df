import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A job of a CI file and the shell commands its steps run, in order. */
export interface CiJob {
  job: string;
  commands: string[];
}

/**
 * The commands of a shell script's text, one per logical line: a line ending in `\` goes on with the next,
 * comment lines and blank lines are dropped, and so is a comment after the command (` # …`).
 */
export function shellCommands(script: string): string[] {
  const joined = script.replace(/\\\n\s*/g, '');
  return joined
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The commands of every fenced `sh`, `bash` or `shell` block of a Markdown text. */
export function markdownCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  return blocks.flatMap(shellCommands);
}

/** Every job of a GitHub Actions workflow (`jobs.*.steps[].run`) or a GitLab CI file (`*.script`), with its commands. */
export function ciJobs(file: string): CiJob[] {
  const document = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (isRecord(document['jobs'])) {
    return Object.entries(document['jobs']).map(([job, body]) => {
      const steps = isRecord(body) && Array.isArray(body['steps']) ? (body['steps'] as unknown[]) : [];
      const runs = steps.flatMap((step) => (isRecord(step) && typeof step['run'] === 'string' ? [step['run']] : []));
      return { job, commands: runs.flatMap(shellCommands) };
    });
  }
  // GitLab: a job is a top-level key with a script; keys starting with a dot are templates, not jobs.
  return Object.entries(document)
    .filter(([job, body]) => !job.startsWith('.') && isRecord(body) && Array.isArray(body['script']))
    .map(([job, body]) => {
      const script = ((body as { script: unknown[] }).script.flat(Infinity) as unknown[]).filter((line): line is string => typeof line === 'string');
      return { job, commands: script.flatMap(shellCommands) };
    });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
