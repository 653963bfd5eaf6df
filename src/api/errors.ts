/** The errors the library rejects with: each a `KitError` with a stable code. */
export { KitError, UsageError, ConfigError, InternalError, RestartFailedError, OutputError, EnvironmentError, type KitErrorCode } from '../errors.js';
