import { splitBatchPath } from '../batch-size.js';

/**
 * A model-based counterexample is found again from the seed, fast-check's path and fast-check's replay path of
 * the commands (which commands ran while shrinking: the path alone cannot tell). The kit prints one `--path`,
 * so the two travel together as `PATH@REPLAY`; neither alphabet has an `@`.
 */
const SEPARATOR = '@';

export interface ModelReplay {
  path?: string;
  replayPath?: string;
}

export function joinReplay(path: string, replayPath: string | undefined): string {
  // An empty replay path (`:`) means nothing was shrunk: the path alone replays the case.
  return replayPath && replayPath !== ':' ? `${path}${SEPARATOR}${replayPath}` : path;
}

export function splitReplay(path: string | undefined): ModelReplay {
  if (path === undefined) return {};
  const at = path.indexOf(SEPARATOR);
  return at < 0 ? { path } : { path: path.slice(0, at), replayPath: path.slice(at + 1) };
}

/** The replay path fast-check prints after a command sequence: `cmd,cmd /*replayPath="…"*\/`. */
export function replayPathOf(sequence: unknown): string | undefined {
  const match = /\/\*replayPath=("(?:[^"\\]|\\.)*")\*\/\s*$/.exec(String(sequence));
  return match ? (JSON.parse(match[1]!) as string) : undefined;
}

/**
 * Whether a result's path (`SIZE/PATH` or `PATH`) goes on past the case its batch found (`RUN:PLACE`, or `RUN`
 * alone for a batch of one): only then did fast-check shrink the commands, and only then does their replay path
 * say anything a replay walks.
 */
export function commandsShrunk(path: string, ownBatchSize: number): boolean {
  const { size = ownBatchSize, path: fcPath } = splitBatchPath(path);
  return fcPath.split(':').length > (size > 1 ? 2 : 1);
}
