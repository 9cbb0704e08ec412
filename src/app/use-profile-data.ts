// The member's info together with the master lists that label it (info view and edit).
import { useEffect, useState } from 'react';
import { getUserInfo, type UserInfo } from '../api/user-info';
import { getMasters } from '../api/masters';
import type { MasterName, MasterOption } from '../shared/api-types';

export type ProfileData =
  | { state: 'loading' }
  | { state: 'error' }
  | { state: 'ok'; user: UserInfo; masters: Record<string, MasterOption[]> };

/** `masters`: the option lists to load (a form's, from mastersOf(schema)). */
export function useProfileData(masters: string[]): ProfileData {
  const [data, setData] = useState<ProfileData>({ state: 'loading' });
  useEffect(() => {
    Promise.all([getUserInfo(), getMasters(masters as MasterName[])]).then(
      ([user, masters]) => setData({ state: 'ok', user, masters }),
      (failure) => {
        console.error('user info failed', failure);
        setData({ state: 'error' });
      },
    );
    // The list comes from a schema and never changes while the screen is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return data;
}
