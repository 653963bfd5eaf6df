/** The bundled reference provisioner, served from code: correct by default, or with one fault. */
export { startReferenceProvisioner, FAULTS, REFERENCE_MODES } from '../reference/index.js';
export type { RunningReference, ReferenceOptions, ReferenceMode, FaultName } from '../reference/index.js';
