import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type Clock, systemClock } from './core/clock.js';
import { type Database, enableVectors } from './core/db/database.js';
import { EventBus } from './core/events/bus.js';
import { API_DOCS_PREFIX, API_PREFIX, registerAuth } from './core/http/auth-plugin.js';
import { registerCors } from './core/http/cors.js';
import { registerErrorHandling } from './core/http/error-handler.js';
import { loggerOptions } from './core/http/logging.js';
import { registerSecurityHeaders } from './core/http/security-headers.js';
import { serializerCompiler } from './core/http/serializer.js';
import { registerWebApp, registerWidgetScript } from './core/http/static.js';
import { JobQueue } from './core/jobs/queue.js';
import { Scheduler } from './core/jobs/scheduler.js';
import type { FeatureModule, ModuleDeps } from './core/module.js';
import { adminModule } from './modules/admin/admin.module.js';
import { affiliatesModule } from './modules/affiliates/affiliates.module.js';
import { Attribution, referralRedirect } from './modules/affiliates/affiliates.routes.js';
import { analyticsModule } from './modules/analytics/analytics.module.js';
import { AttemptLimiter } from './modules/auth/attempt-limiter.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { GoogleVerifier } from './modules/auth/google.js';
import { InvitationService } from './modules/auth/invitations.service.js';
import { SessionResolver } from './modules/auth/sessions.js';
import { TokenService } from './modules/auth/tokens.js';
import { billingModule } from './modules/billing/billing.module.js';
import { entitlementsOf } from './modules/billing/billing.services.js';
import { seedPlans } from './modules/billing/plans.js';
import { botsModule } from './modules/bots/bots.module.js';
import { calendarModule } from './modules/calendar/calendar.module.js';
import { chatModule } from './modules/chat/chat.module.js';
import { WIDGET_PUBLIC_PATHS } from './modules/chat/widget-origins.js';
import { crawlerModule } from './modules/crawler/crawler.module.js';
import { filesModule } from './modules/files/files.module.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { helpdeskModule } from './modules/helpdesk/helpdesk.module.js';
import { homeModule } from './modules/home/home.module.js';
import { integrationsModule } from './modules/integrations/integrations.module.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { embedderFromConfig } from './modules/knowledge/embeddings.js';
import { knowledgeModule } from './modules/knowledge/knowledge.module.js';
import { leadsModule } from './modules/leads/leads.module.js';
import { llmModule } from './modules/llm/llm.module.js';
import { MailService } from './modules/mail/mail.service.js';
import { notificationsModule } from './modules/notifications/inbox-notifications.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { OtpService } from './modules/notifications/otp.service.js';
import { notionModule } from './modules/notion/notion.module.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { seedFeatures } from './modules/roles/roles.seed.js';
import { RolesService } from './modules/roles/roles.service.js';
import { socialModule } from './modules/social/social.module.js';
import { storesModule } from './modules/stores/stores.module.js';
import { unansweredModule } from './modules/unanswered/unanswered.module.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { whatsappModule } from './modules/whatsapp/whatsapp.module.js';

/** Feature modules beyond the foundation, each with its routes and jobs. */
const FEATURE_MODULES: FeatureModule[] = [
  filesModule,
  crawlerModule,
  notionModule,
  knowledgeModule,
  unansweredModule,
  botsModule,
  chatModule,
  helpdeskModule,
  llmModule,
  calendarModule,
  leadsModule,
  homeModule,
  analyticsModule,
  socialModule,
  whatsappModule,
  storesModule,
  billingModule,
  integrationsModule,
  affiliatesModule,
  adminModule,
  notificationsModule,
];

/** all: API and workers in one process (npm start); api or worker: one side only, for scaling apart. */
export type ProcessRole = 'all' | 'api' | 'worker';

export type Parley = {
  app: FastifyInstance;
  database: Database;
  jobs: JobQueue;
  /** Runs scheduled tasks (re-crawls, re-syncs) in worker processes; tests may tick it by hand. */
  scheduler: Scheduler;
  events: EventBus;
  /** Starts the workers (roles all and worker); the caller starts HTTP with app.listen. */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
};

const VERSION = (
  JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as {
    version: string;
  }
).version;
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const DEFAULT_WIDGET_DIST = fileURLToPath(new URL('../../widget/dist', import.meta.url));

/**
 * Wires Parley: services on one database, their routes under /api behind the permission map,
 * OpenAPI at /api/docs, and the built web app at / with history fallback.
 */
export async function createParley(
  config: Config,
  database: Database,
  role: ProcessRole = 'all',
  options: { clock?: Clock } = {},
): Promise<Parley> {
  const app = Fastify({
    ...loggerOptions(config.LOG_LEVEL),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: false },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler({ checkJsonText: config.NODE_ENV !== 'production' }));
  const webDir = config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
  const serveWeb = role !== 'worker' && existsSync(`${webDir}/index.html`);
  registerErrorHandling(app, { webFallback: serveWeb });

  const events = new EventBus(database, { logger: app.log });
  await events.start();
  const jobs = new JobQueue(database, {
    pollMs: config.JOB_POLL_MS,
    leaseMs: config.JOB_LEASE_SECONDS * 1000,
    concurrency: config.WORKER_CONCURRENCY,
    logger: app.log,
  });
  const clock = options.clock ?? systemClock;
  const scheduler = new Scheduler({ tickMs: config.SCHEDULER_TICK_MS, clock, logger: app.log });
  await seedFeatures(database.db);
  await seedPlans(database.db);
  if (embedderFromConfig(config)) {
    await enableVectors(database, config.EMBEDDING_DIMENSIONS, (message) => app.log.warn(message));
  }

  const db = database.db;
  const tokens = new TokenService(
    config.appSecret,
    config.ACCESS_TOKEN_TTL_SECONDS,
    config.REFRESH_TOKEN_TTL_DAYS,
  );
  const sessions = new SessionResolver(db, tokens, events);
  const limiter = new AttemptLimiter({
    perIpPerMinute: config.AUTH_RATE_LIMIT_PER_IP,
    perAccountPer15Minutes: config.AUTH_RATE_LIMIT_PER_ACCOUNT,
    signupsPerIpPerHour: config.AUTH_SIGNUP_LIMIT_PER_IP,
  });
  const mail = new MailService(db, jobs, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    logger: app.log,
  });
  mail.registerWorker();
  const invitations = new InvitationService(
    db,
    mail,
    config.publicUrl,
    entitlementsOf({ db, config }),
    config.appSecret,
  );
  const auth = new AuthService(
    db,
    tokens,
    invitations,
    limiter,
    new GoogleVerifier(config.GOOGLE_CLIENT_ID, config.GOOGLE_JWKS_URL),
    sessions,
  );
  const deps: ModuleDeps = {
    config,
    database,
    db,
    jobs,
    scheduler,
    clock,
    events,
    mail,
    log: app.log,
    authenticate: sessions.authenticate,
  };
  for (const feature of FEATURE_MODULES) feature.jobs?.(deps);
  const otp = new OtpService(db, config.appSecret, mail, limiter, tokens, sessions, config.publicUrl, jobs);
  otp.registerWorker();

  registerSecurityHeaders(app, {
    https: config.publicUrl.startsWith('https://'),
    googleSignIn: Boolean(config.GOOGLE_CLIENT_ID),
  });
  // The console's API answers only the configured origins; the widget's public endpoints any site.
  await registerCors(app, {
    console: { origin: config.corsOrigins.length > 0 ? config.corsOrigins : false, credentials: true },
    public: { origin: '*', credentials: false, methods: ['GET', 'POST'] },
    isPublic: (path) => WIDGET_PUBLIC_PATHS.test(path),
  });
  if (role !== 'worker') await registerWidgetScript(app, config.WIDGET_DIST_DIR ?? DEFAULT_WIDGET_DIST);
  await app.register(fastifyCookie);
  // Once, at the root: the chat and help-desk sockets of feature modules share it.
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await registerDocs(app);
  registerAuth(app, sessions.authenticate);

  if (role !== 'worker') {
    const attribution = new Attribution(deps);
    await app.register(
      async (api) => {
        await api.register(healthRoutes(database, VERSION));
        await api.register(
          authRoutes(
            auth,
            invitations,
            { secure: config.cookieSecure },
            config.GOOGLE_CLIENT_ID,
            (request, reply, tenantId) => attribution.signedUp(request, reply, tenantId),
          ),
        );
        await api.register(
          usersRoutes(new UsersService(db, tokens, sessions), { secure: config.cookieSecure }),
        );
        await api.register(rolesRoutes(new RolesService(db, sessions)));
        await api.register(notificationsRoutes(otp, db, mail, limiter, config.CONTACT_EMAIL));
        await api.register(jobsRoutes(jobs));
        for (const feature of FEATURE_MODULES) if (feature.routes) await api.register(feature.routes(deps));
      },
      { prefix: API_PREFIX },
    );
    // Referral links are shared as /r/{code} on Parley's own address, before the web app's fallback.
    await app.register(referralRedirect(deps));
    if (serveWeb) await registerWebApp(app, webDir);
    else app.log.warn({ dir: webDir }, 'web app not built; run npm run build to serve the console');
  }

  return {
    app,
    database,
    jobs,
    scheduler,
    events,
    startWorkers: async () => {
      if (role === 'api') return;
      await jobs.start();
      scheduler.start();
    },
    close: async () => {
      await app.close();
      await scheduler.stop();
      await jobs.stop({ timeoutMs: 5000 });
      await events.stop();
      mail.close();
    },
  };
}

async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Parley API', version: VERSION, description: 'Every endpoint of the Parley console.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX });
  app.get('/docs', { schema: { hide: true } }, (_request, reply) => reply.redirect(API_DOCS_PREFIX));
}
