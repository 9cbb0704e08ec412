// Run-time settings the server writes into index.html (see src/server/client-files.ts).
import type { ClientSettings } from '../shared/api-types';

export type { ClientSettings };

let cached: ClientSettings | undefined;

export function settings(): ClientSettings {
  if (!cached) {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="member-site-settings"]');
    const parsed = meta ? (JSON.parse(meta.content) as Partial<ClientSettings>) : {};
    cached = {
      clientKey: parsed.clientKey ?? '',
      parentOrigin: parsed.parentOrigin ?? '',
      siteTopUrl: parsed.siteTopUrl ?? '/',
      monitorUrl: parsed.monitorUrl ?? '',
      surveyUrl: parsed.surveyUrl ?? '',
      mailDomain: parsed.mailDomain ?? '',
      sessionSeconds: parsed.sessionSeconds ?? 3600,
      sessionMaxSeconds: parsed.sessionMaxSeconds ?? 43200,
    };
  }
  return cached;
}
