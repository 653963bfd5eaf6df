import { UsageError } from '../errors.js';
import { faultNamed, flagsInWords, serveAndRunFlagsNeeded, type FaultName, type NeededFlag, type ReferenceMode } from '../reference/index.js';

/** The serve flags a fault's needs may set, as `serve` would take them when none is given. */
export interface ServeSettings {
  mode?: ReferenceMode;
  work?: string;
  maxOperations?: number;
  maxOperationDuration?: string;
}

const SETTING_OF_FLAG: Readonly<Record<string, keyof ServeSettings>> = {
  '--mode': 'mode',
  '--work': 'work',
  '--max-operations': 'maxOperations',
  '--max-operation-duration': 'maxOperationDuration',
};

/** The settings with the fault's serve needs filled in, and the line that tells what was applied and what `run --url` needs. */
export interface ServeNeedsApplied {
  settings: ServeSettings;
  line: string;
}

/**
 * Fills in the needs of `serve --fault NAME` that are the server's; a flag given with another value is
 * refused. The needs that are the client's are only told: the user passes them to `run --url`.
 */
export function applyServeFaultNeeds(name: FaultName, given: ServeSettings): ServeNeedsApplied {
  const fault = faultNamed(name);
  const { serve, run } = serveAndRunFlagsNeeded(fault);
  const valueGiven = ({ flag }: NeededFlag): string | undefined => {
    const value = given[SETTING_OF_FLAG[flag]!];
    return value === undefined ? undefined : String(value);
  };
  const { modes } = fault.needs;
  const clashes = serve.filter((need) => {
    const value = valueGiven(need);
    return value !== undefined && (need.flag === '--mode' ? !modes.some((mode) => mode === value) : value !== need.value);
  });
  if (clashes.length > 0) {
    const wanted = clashes.map((need) => (need.flag === '--mode' ? `--mode ${modes.join(' or ')}` : `${need.flag} ${need.value}`));
    const change = clashes.map((need) => `${need.flag} ${valueGiven(need)!}`);
    throw new UsageError('--fault', `${name} needs ${wanted.join(' ')}; change ${change.join(' ')} or leave ${clashes.length > 1 ? 'them' : 'it'} out`);
  }
  const missing = serve.filter((need) => valueGiven(need) === undefined);
  const settings: ServeSettings = { ...given };
  for (const need of missing) {
    const setting = SETTING_OF_FLAG[need.flag]!;
    if (setting === 'mode') settings.mode = modes[0];
    else if (setting === 'maxOperations') settings.maxOperations = Number(need.value);
    else settings[setting] = need.value;
  }
  const server = `needs ${flagsInWords(serve)}: ${missing.length > 0 ? 'applied' : 'given'}`;
  const clientNeeds = [...(run.length > 0 ? [flagsInWords(run)] : []), ...(fault.needs.restart ? ['a --restart-command that restarts this serve (same --port and --store)'] : [])];
  const client = clientNeeds.length > 0 ? `give run --url ${clientNeeds.join(' and ')}` : 'run --url needs no other flags';
  return { settings, line: `the fault ${name} ${server}; ${client}` };
}
