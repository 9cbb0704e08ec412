import { call } from './client';

export interface Application {
  date: string;
  status: string;
  registerNumber?: string | null;
}

export interface Notice {
  id: string;
  date: string;
  message: string;
}

export const getApplications = () => call<Application[]>('get', '/user/application', { auth: 'member' });
export const getNotifications = () => call<Notice[]>('get', '/user/notification', { auth: 'member' });
