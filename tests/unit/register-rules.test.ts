// The registration rules (spec section 5) at their boundaries (tests/support/registration-rules-suite.ts),
// run on schemas/ and on a copy a product owner edited in JSON (other limits, other wordings),
// which must stay green as long as the rules still behave as described. Every other kind of
// JSON-only rule change is run in tests/contract/rule-changes.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import { makeEditedCopy } from '../support/edited-schemas';
import { registrationRules } from '../support/registration-rules-suite';
import { rulesOf } from '../support/schema-messages';

const copy = makeEditedCopy();
afterAll(() => copy.remove());

describe('the edited copy differs where the suite reads it', () => {
  it('in a shared limit and wording and in a form\'s limit and wording', () => {
    const [own, edited] = [rulesOf('register-profile'), rulesOf('register-profile', copy.schemasDir)];
    expect(edited.limit('last_name_kanji', 'maxLength')).toBe(copy.familyName.after);
    expect(own.limit('last_name_kanji', 'maxLength')).toBe(copy.familyName.before);
    expect(edited.message('last_name_kanji', 'maxLength')).not.toBe(own.message('last_name_kanji', 'maxLength'));
    expect(edited.message('last_name_kanji', 'pattern')).toBe(copy.familyName.patternMessage);
    expect(edited.limit('purpose_detail', 'maxLength')).toBe(copy.after);
    expect(edited.message('purpose_detail', 'not')).toBe(copy.banMessage);
  });
});

describe('registration rules as schemas/ states them', () => registrationRules(SCHEMAS_DIR));
describe('registration rules as an edited copy of schemas/ states them', () => registrationRules(copy.schemasDir));
