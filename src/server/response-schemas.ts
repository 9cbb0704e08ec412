// Response schema of the hottest read (ADR 017; the master option list's is schemas/api/master-options-response.json): Fastify compiles each into a serialiser
// (fast-json-stringify) once at start instead of running JSON.stringify over the object on every
// answer. A property not listed here is not sent, so each lists the whole shared type.
import type { UserInfo } from '../shared/api-types';

type Properties<T> = Record<keyof T, { type: 'string' }>;

const text = { type: 'string' } as const;

const userInfoProperties: Properties<Required<UserInfo>> = {
  email: text,
  last_name_kanji: text,
  first_name_kanji: text,
  last_name_alpha: text,
  first_name_alpha: text,
  birthday: text,
  gender: text,
  job: text,
  jobLabel: text,
  industry: text,
  industry_other: text,
  zip_current: text,
  address_current: text,
  amc: text,
  phone: text,
  purpose: text,
  purpose_detail: text,
  purpose_other: text,
  mail_opt: text,
};

export const userInfoResponse = {
  200: {
    type: 'object',
    properties: userInfoProperties,
    // jobLabel is absent when the saved job is in no list
    required: Object.keys(userInfoProperties).filter((key) => key !== 'jobLabel'),
    additionalProperties: false,
  },
};
