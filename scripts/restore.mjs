// `npm run restore -- FILE` (issue 20): a backup archive into an empty DATA_DIR, or into the empty
// database of DATABASE_URL; a damaged archive is refused before anything is written.
import './check-node.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../apps/api/src/restore.ts');
