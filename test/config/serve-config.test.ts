import { describe, expect, it } from 'vitest';
import { resolveServeConfig } from '../../src/config/serve-config.js';
import { UsageError } from '../../src/errors.js';

function refusal(options: Parameters<typeof resolveServeConfig>[0]): string {
  try {
    resolveServeConfig(options);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    // The message names the flag first, as the command line prints it.
    return (error as Error).message;
  }
  throw new Error('the options were not refused');
}

describe("serve's configuration", () => {
  it('takes numbers as the flags give them, as text, and as a library gives them', () => {
    expect(resolveServeConfig({ port: '8080', maxOperations: '12' })).toMatchObject({ port: 8080, maxOperations: 12 });
    expect(resolveServeConfig({ port: 0, maxOperations: 3 })).toMatchObject({ port: 0, maxOperations: 3 });
    expect(resolveServeConfig({})).toMatchObject({ port: 0, maxOperations: 100 });
  });

  it('quotes a value that is no number as the user wrote it, naming its flag', () => {
    expect(refusal({ port: 'x' })).toBe('--port: "x" is not a port number (0 to 65535)');
    expect(refusal({ port: '99999' })).toBe('--port: "99999" is not a port number (0 to 65535)');
    expect(refusal({ port: '80.5' })).toBe('--port: "80.5" is not a port number (0 to 65535)');
    expect(refusal({ maxOperations: 'lots' })).toBe('--max-operations: "lots" is not a whole number of at least 0');
    expect(refusal({ maxOperations: -1 })).toBe('--max-operations: "-1" is not a whole number of at least 0');
  });
});
