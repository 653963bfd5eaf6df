import { FAULTS, flagsInWords, runFlagsNeeded } from '../reference/index.js';
import type { Fault } from '../reference/index.js';

/** What a fault needs, as the flags `run --reference --reference-fault` applies (`sync|async`: either mode), with the restart it also needs. */
function needsInWords(fault: Fault): string {
  const { modes, restart } = fault.needs;
  const flags = runFlagsNeeded(fault).map((need) => (need.flag === '--reference-mode' ? { ...need, value: modes.join('|') } : need));
  return `${flagsInWords(flags)}${restart ? ', and a restart of the provisioner' : ''}`;
}

/**
 * `serve --list-faults`: per fault a line with its name, the rules it breaks and its summary, then a line with
 * what it needs as `run` flags; a closing line says who applies them.
 */
export function faultListing(): string {
  const width = Math.max(...FAULTS.map((fault) => fault.name.length));
  const breaksWidth = Math.max(...FAULTS.map((fault) => fault.breaks.join(', ').length));
  const lines = FAULTS.flatMap((fault) => [
    `${fault.name.padEnd(width)}  ${fault.breaks.join(', ').padEnd(breaksWidth)}  ${fault.summary}`,
    `${' '.repeat(width)}  needs ${needsInWords(fault)}`,
  ]);
  lines.push('', 'run --reference --reference-fault NAME applies what NAME needs; serve --fault NAME applies those it serves with (--mode, --work, --max-operations, --max-operation-duration) and prints the run --url flags for the rest.');
  return `${lines.join('\n')}\n`;
}
