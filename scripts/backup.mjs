// `npm run backup -- [--to FILE]` (issue 20): one archive of the database (DATABASE_URL, or the
// embedded PGlite in DATA_DIR when no server holds it), the uploaded files and a manifest.
import './check-node.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../apps/api/src/backup.ts');
