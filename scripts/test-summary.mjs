// Adds up the JSON reports every workspace's vitest run wrote into the one closing line CI
// reads: "Tests: N passed, N failed, N skipped". Failed and skipped tests are named above it, so
// that the end of CI's log says which test failed and why.
import fs from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..', '.test-results');
let passed = 0;
let failed = 0;
let skipped = 0;
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
for (const file of files) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'passed') passed++;
      else if (test.status === 'failed') {
        failed++;
        console.log(
          // The duration tells a timeout, which the report's message does not name (vitest writes STACK_TRACE_ERROR).
          `failed: ${path.relative(process.cwd(), suite.name)}: ${test.fullName} (${Math.round(test.duration ?? 0)} ms): ${(test.failureMessages?.[0] ?? '').split('\n')[0]}`,
        );
      } else {
        skipped++;
        console.log(`skipped: ${test.fullName}`);
      }
    }
    if ((suite.assertionResults ?? []).length === 0 && suite.status === 'failed') {
      failed++;
      console.log(`failed to load: ${path.relative(process.cwd(), suite.name)}: ${(suite.message ?? '').split('\n')[0]}`);
    }
  }
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (files.length === 0 || failed > 0 || passed === 0) process.exit(1);
