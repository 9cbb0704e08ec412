// A small software authenticator for API tests (docs/decisions/031): an ES256 key pair from
// node:crypto, 'none' attestation, authenticatorData and clientDataJSON built as the WebAuthn
// spec lays them out, so the server's real SimpleWebAuthn verification runs on what it answers.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// ---- the CBOR this needs (RFC 8949): unsigned and negative integers, byte and text strings, maps.
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  counter: number;
  userHandle?: string;
}

export interface Ceremony {
  origin: string;
  rpId: string;
  /** Leave out user verification (the UV flag), as an authenticator without a PIN would. */
  userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(private readonly ceremony: Ceremony) {}

  private authData(flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const uv = this.ceremony.userVerified === false ? 0 : UV;
    return Buffer.concat([sha256(this.ceremony.rpId), Buffer.from([flags | UP | uv]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin = this.ceremony.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  /** navigator.credentials.create(): answers the server's registration options. */
  create(options: { challenge: string; user?: { id?: string } }, { origin }: { origin?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = this.authData(AT, 0, Buffer.concat([Buffer.alloc(16), idLength, id, cose]));
    const attestationObject = cbor(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    this.credentials.push({ id, privateKey, publicKey, counter: 0, userHandle: options.user?.id });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: { clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, origin)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): signs the server's challenge with a credential (the last made). */
  get(options: { challenge: string }, { credential = this.credentials.at(-1)!, origin }: { credential?: SoftCredential; origin?: string } = {}) {
    credential.counter += 1;
    const authData = this.authData(0, credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), ...(credential.userHandle ? { userHandle: credential.userHandle } : {}) },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
