// npm run a11y-report: writes docs/accessibility-report.md from the last browser test run's
// records. --check: fails (exit 1) when the committed report differs from what the run gives,
// as CI does after the browser tests (regenerate with npm run a11y-report and commit).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { generateReport, REPORT_FILE } from './render';

const report = generateReport();
if (process.argv.includes('--check')) {
  const committed = existsSync(REPORT_FILE) ? readFileSync(REPORT_FILE, 'utf8') : '';
  if (committed !== report) {
    console.error(`${REPORT_FILE} is not what this test run checked: run npm run a11y-report after the browser tests and commit it.`);
    process.exit(1);
  }
  console.log(`${REPORT_FILE} matches this run.`);
} else {
  writeFileSync(REPORT_FILE, report);
  console.log(`wrote ${REPORT_FILE}`);
}
