// npm run impact [-- --schemas DIR] [-- --json]: how many stored members and inquiries the
// schemas (by default the working tree's) would refuse, per form, field and rule. Reads the
// database the site would use (DATABASE_URL or DATA_DIR, through loadConfig) and writes nothing.
import { loadConfig } from '../src/server/config';
import { openStoredData, runImpact } from '../src/server/impact/cli';
import { consoleOutput } from '../src/server/operator/output';

process.exitCode = await runImpact(process.argv.slice(2), consoleOutput, () => openStoredData(loadConfig()));
