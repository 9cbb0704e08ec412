// My data (the disclosure screen): the member's data (one document, schemas/api/user-disclosure.json), its
// download as a file, and a request for a correction or deletion.
import { call } from './client';

export type Disclosure = Record<string, unknown>;
export type DisclosureFormat = 'json' | 'html';

export interface DataRequest {
  id: string;
  kind: string;
  text: string;
  created_at: string;
  due_at: string;
  status: string;
}

export const getDisclosure = () => call<Disclosure>('get', '/user/disclosure', { auth: 'member' });

/** The file as the server sent it (the server records the download and mails the member). */
export const downloadDisclosure = (format: DisclosureFormat) =>
  call<Blob>('get', '/user/disclosure/download', { auth: 'member', params: { format }, responseType: 'blob' });

export const sendDataRequest = (body: { kind: string; text: string }) => call<{ request: DataRequest }>('post', '/user/requests', { auth: 'member', body });
