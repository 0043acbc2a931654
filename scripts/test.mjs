// `npm test`: the stages one after another, each one's time printed, stopping at the first failure.
// Stages are the package.json scripts of the same names, so each can still be run alone.
import { spawnSync } from 'node:child_process';

const STAGES = ['lint', 'typecheck', 'test:unit', 'test:server', 'test:e2e'];
const times = [];

function summary() {
  for (const { stage, seconds, ok } of times)
    console.log(`   ${ok ? 'ok    ' : 'FAILED'} ${stage.padEnd(12)} ${seconds} s`);
}

for (const stage of STAGES) {
  console.log(`\n== npm run ${stage}`);
  const started = Date.now();
  const result = spawnSync('npm', ['run', stage], { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1_000);
  const ok = result.status === 0;
  times.push({ stage, seconds, ok });
  console.log(`== ${stage}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s`);
  if (!ok) {
    summary();
    process.exit(result.status ?? 1);
  }
}
console.log('\n== npm test: every stage passed');
summary();
