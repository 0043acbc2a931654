// `npm run build -w packages/contracts`: compiles the contracts (or confirms the cache is current).
import { ARTIFACTS_FILE, loadArtifactsFile } from './compile.ts';

const started = Date.now();
const force = process.argv.includes('--force');
const artifacts = loadArtifactsFile({ force });
console.log(
  `${Object.keys(artifacts.contracts).length} contracts (solc ${artifacts.solcVersion}, OpenZeppelin ${artifacts.openzeppelinVersion}) in ${ARTIFACTS_FILE} — ${Date.now() - started} ms`,
);
