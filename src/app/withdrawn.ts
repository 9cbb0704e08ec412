// The one way onto withdraw_complete without a session: the navigation withdrawal makes the
// moment the server confirmed it (the session is already cleared then). The history entry keeps
// the state, so a reload shows the message again; opened any other way, the login guard applies.
import type { Location } from 'react-router-dom';

export const WITHDRAWN_STATE = { afterWithdrawal: true } as const;

export const justWithdrawn = (location: Location): boolean => (location.state as { afterWithdrawal?: unknown } | null)?.afterWithdrawal === true;
