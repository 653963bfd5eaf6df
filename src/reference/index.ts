export { startReferenceProvisioner } from './server.js';
export type { RunningReference } from './server.js';
export type { ReferenceMode, ReferenceOptions } from './options.js';
export { DEFAULT_MAX_OPERATION_DURATION_MS, REFERENCE_MODES } from './options.js';
export { FAULTS, isFaultName } from './faults/index.js';
export type { FaultName } from './faults/index.js';
export type { Fault, FaultNeeds } from './fault.js';
export type { Seams } from './seams.js';
