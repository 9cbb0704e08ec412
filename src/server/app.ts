// build(opts) assembles the API (and, given distDir, the client) without listening, so tests
// drive it with inject(); src/server/main.ts does the listening.
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import messages from '../../messages/ja.json';
import type { Db } from './db/connect';
import type { Mailer } from './mail/mailer';
import { ApiError } from './errors';
import { installAuth } from './auth';
import { createCodes } from './services/codes';
import { createSessions } from './services/sessions';
import { createServerAjv } from './validation';
import { toFieldErrors } from '../shared/validation/field-errors';
import type { AppConfig, AppContext } from './context';
import { serveClient } from './client-files';
import { trimFreeText } from './free-text';
import type { ClientSettings } from '../shared/api-types';
import { userAuthRoutes } from './routes/user-auth';
import { userInfoRoutes } from './routes/user-info';
import { registrationRoutes } from './routes/registration';
import { masterRoutes } from './routes/masters';
import { memberRoutes } from './routes/member';
import { accountRoutes } from './routes/account';
import { contactRoutes } from './routes/contact';
import { passwordResetRoutes } from './routes/password-reset';
import { verifyRoutes } from './routes/verify';

export interface BuildOptions {
  db: Db;
  mailer: Mailer;
  clientKey: string;
  secret: string;
  config: AppConfig;
  /** The built client; when given it is served under /user/. */
  distDir?: string;
  /** Instead of distDir: mounts the client some other way (npm run dev mounts Vite). */
  mountClient?: (app: FastifyInstance, settings: ClientSettings) => Promise<void>;
  /** Vite's dev client needs an inline preamble script and a websocket; never in production. */
  devCsp?: boolean;
  logger?: boolean;
}

export function securityPolicy(parentOrigins: string[], dev = false) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    styleSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: dev ? ["'self'", 'ws:'] : ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'", ...parentOrigins],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    upgradeInsecureRequests: null,
  };
}

export async function build(opts: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 64 * 1024, trustProxy: true });
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: securityPolicy(opts.config.parentOrigins, opts.devCsp) },
    frameguard: false, // X-Frame-Options cannot name a cross-origin parent; frame-ancestors does
    crossOriginEmbedderPolicy: false,
  });

  const { ajv } = createServerAjv();
  const mailer: Mailer = {
    async send(to, template, values) {
      try {
        await opts.mailer.send(to, template, values);
      } catch (error) {
        app.log.error({ err: error, template }, 'mail send failed');
        throw new ApiError('MAIL_FAILED');
      }
    },
  };
  const sessions = createSessions(opts.db, opts.config.sessionSeconds, opts.config.trustedDeviceDays);
  const ctx: AppContext = {
    db: opts.db,
    mailer,
    sessions,
    codes: createCodes(opts.db, { ...opts.config, secret: opts.secret }),
    config: opts.config,
    secret: opts.secret,
    parse<T>(schemaId: string, raw: unknown): T {
      const validate = ajv.getSchema(schemaId);
      if (!validate) throw new Error(`No API schema ${schemaId}`);
      const body = trimFreeText(raw);
      if (!validate(body)) {
        const fields = toFieldErrors(validate.errors, messages.form.fallbackFieldError);
        // A body that is not an object at all has nothing to show under a field.
        if ('' in fields) throw new ApiError('BAD_REQUEST');
        throw new ApiError('VALIDATION', fields);
      }
      return body as T;
    },
  };

  installAuth(app, opts.clientKey, sessions);
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.toBody());
    const status = error.statusCode ?? 500;
    if (status < 500) return reply.code(status).send(new ApiError('BAD_REQUEST').toBody());
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(new ApiError('INTERNAL').toBody());
  });
  app.setNotFoundHandler((_, reply) => reply.code(404).send(new ApiError('NOT_FOUND').toBody()));

  userAuthRoutes(app, ctx);
  verifyRoutes(app, ctx);
  userInfoRoutes(app, ctx);
  registrationRoutes(app, ctx);
  masterRoutes(app, ctx);
  memberRoutes(app, ctx);
  accountRoutes(app, ctx);
  contactRoutes(app, ctx);
  passwordResetRoutes(app, ctx);

  const settings: ClientSettings = {
    clientKey: opts.clientKey,
    parentOrigin: opts.config.parentOrigins[0] ?? '',
    siteTopUrl: opts.config.siteTopUrl,
    monitorUrl: opts.config.monitorUrl,
    surveyUrl: opts.config.surveyUrl,
    mailDomain: opts.config.mailDomain,
  };
  if (opts.mountClient) await opts.mountClient(app, settings);
  else if (opts.distDir) await serveClient(app, opts.distDir, settings);
  return app;
}
