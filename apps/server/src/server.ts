// The server from source (`npm run start -w apps/server`, the fault tests' real server); `npm start`
// runs the same start from its build (entry.ts).
import { startServer } from './entry.ts';

await startServer();
