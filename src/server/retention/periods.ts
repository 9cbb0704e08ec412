// How long personal data is kept once it is no longer needed (docs/decisions/041): a withdrawn
// member's, counted from the withdrawal, and a visitor's inquiry's, counted from its last change.
// Configured by RETENTION_DAYS_AFTER_WITHDRAWAL and RETENTION_DAYS_VISITOR_INQUIRIES (config.ts).
import { iso } from '../services/clock';

export interface RetentionPeriods {
  /** Days after withdrawal (0: erased at the next run). */
  afterWithdrawalDays: number;
  /** Days after a visitor's inquiry last changed. */
  visitorInquiryDays: number;
}

/** The defaults and their reasons: ADR 041. */
export const DEFAULT_RETENTION: RetentionPeriods = { afterWithdrawalDays: 365, visitorInquiryDays: 180 };

/** The latest instant a row may carry to be due at `at` after `days` (a member withdrawn exactly
 *  `days` days ago is due). */
export const cutoffOf = (days: number, at: Date): string => iso(new Date(at.getTime() - days * 86400_000));
