import type { CommandHead } from './declaration.js';

/**
 * The run command as `--help` lists it. Its flags take their defaults from the profiles, the config file
 * and the property suites, modules that load ajv, yaml and fast-check: they are declared in src/cli/run.ts
 * and load only when `run` is dispatched.
 */
export const RUN_HEAD: CommandHead = {
  command: 'run',
  describe: 'Play the control plane against a provisioner and judge every answer',
};
