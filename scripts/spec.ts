// npm run spec [schemasDir] [outFile]: writes docs/validation-spec.md from the schemas, then
// lists any text that contradicts its rule (exit code 1 when there is one).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateValidationSpec, SPEC_FILE } from '../tools/validation-spec/render.ts';
import { contradictionLines } from '../tools/validation-spec/contradictions.ts';

const [schemasDir, outFile = SPEC_FILE] = process.argv.slice(2);
writeFileSync(outFile, generateValidationSpec(schemasDir ? { schemasDir: resolve(schemasDir) } : {}));
console.log(`wrote ${outFile}`);
const contradictions = contradictionLines(schemasDir ? resolve(schemasDir) : undefined);
if (contradictions.length > 0) {
  for (const line of contradictions) console.error(line);
  process.exitCode = 1;
}
