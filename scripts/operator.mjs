// `npm run operator -- list | mark-paid <movement> | extend <clinic> <date>` (issue 19): Odontia's
// operator commands, against DATABASE_URL or the embedded PGlite in DATA_DIR, as `npm start`.
import './check-node.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../apps/api/src/operator.ts');
