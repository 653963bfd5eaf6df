/** ANSI colouring that turns into plain text when colour is off. */
export interface Style {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

function wrap(open: number, close: number): (text: string) => string {
  return (text) => (text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`);
}

const COLOURED: Style = {
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
};

const identity = (text: string): string => text;
const PLAIN: Style = { red: identity, green: identity, yellow: identity, cyan: identity, dim: identity, bold: identity };

export function createStyle(color: boolean): Style {
  return color ? COLOURED : PLAIN;
}

/** NO_COLOR (set and not empty) wins, then FORCE_COLOR (unless 0 or false), then whether the stream is a terminal. */
export function shouldUseColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return stream.isTTY === true;
}
