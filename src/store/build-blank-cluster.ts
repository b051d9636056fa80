/**
 * Run by `npm run build` after tsc: leaves a blank PGlite cluster in `dist/pglite-blank/`, so that
 * the first start on a new DATA_DIR copies it instead of running initdb (see pglite-seed.ts).
 */
import { BUILT_BLANK_CLUSTER, makeBlankCluster } from './pglite-seed.js';

await makeBlankCluster(BUILT_BLANK_CLUSTER);
process.stdout.write(`blank PGlite cluster ready in ${BUILT_BLANK_CLUSTER}\n`);
