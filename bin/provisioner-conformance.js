#!/usr/bin/env node
// Thin entry: the compiled CLI does the work, in a process whose young generation stays small.
const { keepYoungGenerationSmall } = await import('../dist/src/core/young-generation.js');
keepYoungGenerationSmall();
const { main } = await import('../dist/src/cli/main.js');

process.exitCode = await main(process.argv.slice(2));
