export { startReferenceProvisioner } from './server.js';
export type { RunningReference } from './server.js';
export type { ReferenceMode } from './mode.js';
export type { ReferenceOptions } from './options.js';
export { REFERENCE_MODES } from './mode.js';
export { FAULTS, isFaultName } from './faults.js';
export type { FaultDescription, FaultName } from './faults.js';
