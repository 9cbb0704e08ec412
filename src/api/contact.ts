import { call } from './client';
import catalogue from '../../schemas/catalogue.json';
import { routeSettingOf } from '../shared/route-settings';

/** The specification's contact payload; purpose_detail is the inquiry text. */
export interface ContactPayload {
  last_name_kanji: string;
  first_name_kanji: string;
  email: string;
  inquiry_user_type: string;
  inquiry_type: string;
  purpose_detail: string;
  job: string;
  privacy_checked: true;
  agree_privacy: true;
}

/** Works for visitors (client key) and members (their token: the inquiry is theirs). */
export const sendInquiry = (body: ContactPayload) => call<{ ticket_no?: string }>('post', '/contact', { auth: 'member-or-client', body });

export interface InquiryItem {
  id: string;
  created_at: string;
  category: string;
  ticket_no?: string;
  subject: string;
  status?: string;
}

/** Inquiries a page of the history shows (the catalogue's contact_history pageSize). */
export const CONTACT_PAGE_SIZE = routeSettingOf(catalogue, 'contact_history', 'pageSize');

export const getInquiries = (page: number, status: string) =>
  call<InquiryItem[]>('get', '/user/contact/list', { auth: 'member', params: { page, size: CONTACT_PAGE_SIZE, status } });

/** One of the member's inquiries in full (GET /v1/user/contact/:id); answer is null until the office answers. */
export interface InquiryDetail {
  id: string;
  created_at: string;
  updated_at: string;
  category: string;
  ticket_no: string;
  content: string;
  status: 'open' | 'answered' | 'closed';
  answer: string | null;
}

export const getInquiry = (id: string) => call<InquiryDetail>('get', `/user/contact/${encodeURIComponent(id)}`, { auth: 'member' });
