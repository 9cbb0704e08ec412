// npm run spec [schemasDir] [outFile]: writes docs/validation-spec.md from the schemas.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateValidationSpec, SPEC_FILE } from '../tools/validation-spec/render.ts';

const [schemasDir, outFile = SPEC_FILE] = process.argv.slice(2);
writeFileSync(outFile, generateValidationSpec(schemasDir ? { schemasDir: resolve(schemasDir) } : {}));
console.log(`wrote ${outFile}`);
