// Every answer to a member's request says how long the session has left (docs/decisions/024):
// seconds until its idle end (moved forward by this very request) and until its absolute end.
// Relative seconds, so the device's clock need not agree with the server's.
export const SESSION_EXPIRES_IN_HEADER = 'X-Session-Expires-In';
export const SESSION_ENDS_IN_HEADER = 'X-Session-Ends-In';
