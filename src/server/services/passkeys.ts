// Passkeys (WebAuthn, docs/decisions/031) for members and operators, with SimpleWebAuthn. The
// relying party is PUBLIC_URL: its hostname is the RP ID, its origin the only expected origin.
// Challenges are made here and kept in the database (single use, CHALLENGE_SECONDS, bound to
// their purpose, owner and flow), never trusted from the client: the answer names its challenge
// in clientDataJSON, and that challenge must be one this server handed out for this purpose.
import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect';
import type { Database, PasskeysTable, WebauthnChallengesTable } from '../db/types';
import { isUniqueViolation } from '../db/errors';
import { ApiError } from '../errors';
import { iso, inSeconds, now } from './clock';

/** How long a challenge may be answered (and the browser's own timeout). */
export const CHALLENGE_SECONDS = 300;

export type OwnerType = PasskeysTable['owner_type'];
export interface PasskeyOwner {
  type: OwnerType;
  id: string;
}

/** What a member or an operator sees of a passkey. */
export interface PasskeyItem {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** The relying party PUBLIC_URL names: its hostname and its origin. */
export function relyingParty(publicUrl: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const failed = () => new ApiError('PASSKEY_FAILED');

/** The challenge an answer says it signed (clientDataJSON.challenge), or PASSKEY_FAILED. */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string {
  try {
    const data = JSON.parse(Buffer.from(String(response.response?.clientDataJSON ?? ''), 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string' && data.challenge) return data.challenge;
  } catch {
    // not JSON: answered below as any other failure
  }
  throw failed();
}

const item = (row: Pick<PasskeysTable, 'id' | 'name' | 'created_at' | 'last_used_at'>): PasskeyItem => ({ id: row.id, name: row.name, created_at: row.created_at, last_used_at: row.last_used_at });

export function createPasskeys(db: Db, publicUrl: string) {
  const { rpID, origin } = relyingParty(publicUrl);

  async function keep(challenge: string, purpose: WebauthnChallengesTable['purpose'], ownerId: string | null, flowHash: string | null) {
    const at = now();
    // Challenges nobody answered are forgotten as new ones are made (an index range).
    await db.deleteFrom('webauthn_challenges').where('expires_at', '<', iso(at)).execute();
    await db
      .insertInto('webauthn_challenges')
      .values({ challenge, purpose, owner_id: ownerId, flow_hash: flowHash, created_at: iso(at), expires_at: inSeconds(CHALLENGE_SECONDS, at), used_at: null })
      .execute();
  }

  /** Uses up the challenge an answer names, once: it must be live, unused and of this purpose. */
  async function take(response: { response?: { clientDataJSON?: unknown } }, purpose: WebauthnChallengesTable['purpose']) {
    const challenge = challengeOf(response);
    const at = iso(now());
    const used = await db
      .updateTable('webauthn_challenges')
      .set({ used_at: at })
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw failed();
    return db.selectFrom('webauthn_challenges').selectAll().where('challenge', '=', challenge).executeTakeFirstOrThrow();
  }

  const rowsOf = (owner: PasskeyOwner) =>
    db.selectFrom('passkeys').selectAll().where('owner_type', '=', owner.type).where('owner_id', '=', owner.id).orderBy('created_at').orderBy('id').execute();

  const descriptor = (row: PasskeysTable) => ({ id: row.credential_id, transports: JSON.parse(row.transports) as AuthenticatorTransportFuture[] });

  return {
    rpID,
    origin,

    async list(owner: PasskeyOwner): Promise<PasskeyItem[]> {
      return (await rowsOf(owner)).map(item);
    },

    async has(owner: PasskeyOwner): Promise<boolean> {
      const row = await db.selectFrom('passkeys').select('id').where('owner_type', '=', owner.type).where('owner_id', '=', owner.id).executeTakeFirst();
      return !!row;
    },

    /** Options for navigator.credentials.create(): a discoverable credential for a member (the
     *  login asks for no address), user verification required, none of the owner's passkeys again. */
    async registrationOptions(owner: PasskeyOwner, user: { rpName: string; userName: string; displayName: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const options = await generateRegistrationOptions({
        rpName: user.rpName,
        rpID,
        userName: user.userName,
        userID: new TextEncoder().encode(`${owner.type}:${owner.id}`),
        userDisplayName: user.displayName,
        timeout: CHALLENGE_SECONDS * 1000,
        attestationType: 'none',
        excludeCredentials: (await rowsOf(owner)).map(descriptor),
        authenticatorSelection: owner.type === 'member' ? { residentKey: 'required', requireResidentKey: true, userVerification: 'required' } : { residentKey: 'discouraged', userVerification: 'required' },
        supportedAlgorithmIDs: [-7, -257],
      });
      await keep(options.challenge, `${owner.type}_register`, owner.id, null);
      return options;
    },

    /** Checks the authenticator's answer to a registration challenge of this owner; then
     *  `store` keeps the credential (in the caller's transaction, with its mail or audit entry). */
    async verifyRegistration(owner: PasskeyOwner, response: RegistrationResponseJSON) {
      const challenge = await take(response, `${owner.type}_register`);
      if (challenge.owner_id !== owner.id) throw failed();
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      }).catch(() => {
        throw failed();
      });
      if (!verification.verified) throw failed();
      return verification.registrationInfo.credential;
    },

    /** Keeps a verified credential under a name; a credential already kept (here or by anyone) is refused. */
    async store(tx: Kysely<Database>, owner: PasskeyOwner, name: string, credential: WebAuthnCredential): Promise<PasskeyItem> {
      const row = {
        id: randomUUID(),
        owner_type: owner.type,
        owner_id: owner.id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        name,
        created_at: iso(now()),
        last_used_at: null,
      };
      await tx
        .insertInto('passkeys')
        .values(row)
        .execute()
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? failed() : error;
        });
      return item(row);
    },

    /** Removes one of the owner's passkeys (in the caller's transaction); its name, or NOT_FOUND. */
    async remove(tx: Kysely<Database>, owner: PasskeyOwner, id: string): Promise<string> {
      const row = await tx.selectFrom('passkeys').select('name').where('id', '=', id).where('owner_type', '=', owner.type).where('owner_id', '=', owner.id).executeTakeFirst();
      if (!row) throw new ApiError('NOT_FOUND');
      await tx.deleteFrom('passkeys').where('id', '=', id).execute();
      return row.name;
    },

    /** Options for navigator.credentials.get(). A member's login names nobody (the
     *  authenticator offers its discoverable credentials); an operator's second factor names
     *  that operator's passkeys and is bound to their login flow. */
    async authenticationOptions(type: OwnerType, bound?: { owner: PasskeyOwner; flowHash: string }): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const options = await generateAuthenticationOptions({
        rpID,
        allowCredentials: bound ? (await rowsOf(bound.owner)).map(descriptor) : [],
        userVerification: 'required',
        timeout: CHALLENGE_SECONDS * 1000,
      });
      await keep(options.challenge, `${type}_login`, bound?.owner.id ?? null, bound?.flowHash ?? null);
      return options;
    },

    /** The passkey that answered a login challenge of this kind (and flow), after checking its
     *  signature, counter and user verification; its counter and last use are written. */
    async authenticate(type: OwnerType, response: AuthenticationResponseJSON, flowHash?: string): Promise<PasskeysTable> {
      const challenge = await take(response, `${type}_login`);
      if ((challenge.flow_hash ?? undefined) !== flowHash) throw failed();
      const passkey = await db.selectFrom('passkeys').selectAll().where('credential_id', '=', String(response.id)).where('owner_type', '=', type).executeTakeFirst();
      if (!passkey || (challenge.owner_id !== null && challenge.owner_id !== passkey.owner_id)) throw failed();
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')), counter: Number(passkey.counter), transports: descriptor(passkey).transports },
        requireUserVerification: true,
      }).catch(() => {
        throw failed();
      });
      if (!verification.verified) throw failed();
      const at = iso(now());
      await db.updateTable('passkeys').set({ counter: verification.authenticationInfo.newCounter, last_used_at: at }).where('id', '=', passkey.id).execute();
      return { ...passkey, counter: verification.authenticationInfo.newCounter, last_used_at: at };
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
