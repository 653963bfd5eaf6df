'use strict';
// The kit is an ES module. Node 20.19, 22.12 and later load one with require(); an older Node cannot, and this file
// says so in words a user can act on instead of ERR_PACKAGE_PATH_NOT_EXPORTED or ERR_REQUIRE_ESM.
try {
  module.exports = require('../dist/src/index.js');
} catch (error) {
  if (!error || (error.code !== 'ERR_REQUIRE_ESM' && error.code !== 'ERR_REQUIRE_ASYNC_MODULE')) throw error;
  const esm = new Error(
    `provisioner-conformance is an ES module: use import() (const { runConformance } = await import('provisioner-conformance')) ` +
      `or import it from an ES module; require() loads it only on Node 20.19, 22.12 or newer (this is Node ${process.versions.node})`,
    { cause: error },
  );
  esm.code = 'ERR_REQUIRE_ESM';
  throw esm;
}
