import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { createWebhookCaller } from './gateways/webhooks/webhook-caller';
import { createPasswords, type ScryptCost } from './lib/passwords';
import { createSecretBox } from './lib/secret-box';
import { systemClock, type Clock } from './lib/time';
import { createSharedRateLimiter } from './db/rate-counters';
import { createAccountMailRepository } from './modules/account-mail/account-mail.repository';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditService } from './modules/audit/audit.service';
import { createAuditTrail } from './modules/audit/audit-trail';
import { createAuthService } from './modules/auth/auth.service';
import { createLoginFailuresRepository } from './modules/auth/login-failures.repository';
import { createPasswordResetsRepository } from './modules/auth/password-resets.repository';
import { createMembersRepository } from './modules/members/members.repository';
import { createMembersService } from './modules/members/members.service';
import { createCampaignsRepository } from './modules/campaigns/campaigns.repository';
import { createCampaignEventLog } from './observability/campaign-events';
import { createAbDecisions } from './modules/campaigns/ab-decisions';
import { createCampaignsService } from './modules/campaigns/campaigns.service';
import { createReviewRepository } from './modules/campaigns/review.repository';
import { createContactGroupsRepository } from './modules/contact-groups/contact-groups.repository';
import { createContactGroupsService } from './modules/contact-groups/contact-groups.service';
import { createContactsRepository, createRecipientsRepository } from './modules/contacts/contacts.repository';
import { createContactsService } from './modules/contacts/contacts.service';
import { createContactsDirectoryRepository } from './modules/contacts-directory/contacts-directory.repository';
import { createContactsDirectoryService } from './modules/contacts-directory/contacts-directory.service';
import { confirmationText, createConsentRepository } from './modules/consent/consent.repository';
import { createCheckoutConsent } from './modules/consent/checkout-consent';
import { createConsentService } from './modules/consent/consent.service';
import { createOptInRepository } from './modules/consent/opt-in.repository';
import { createOverviewRepository } from './modules/overview/overview.repository';
import { createOverviewService } from './modules/overview/overview.service';
import { createImportsRepository } from './modules/imports/imports.repository';
import { createImportsService } from './modules/imports/imports.service';
import { createInboundRepository } from './modules/inbound/inbound.repository';
import { createInboundService } from './modules/inbound/inbound.service';
import { createKeywordsRepository } from './modules/keywords/keywords.repository';
import { createKeywordsService } from './modules/keywords/keywords.service';
import { createLinksRepository } from './modules/links/links.repository';
import { createSuppressionsRepository } from './modules/suppressions/suppressions.repository';
import { createSuppressions } from './modules/suppressions/suppressions.service';
import { optOutsOfCampaign } from './modules/suppressions/suppressions.sql';
import { createLinksService } from './modules/links/links.service';
import { createTrackedLinks } from './modules/links/tracked-links.service';
import { createReportLinks } from './modules/reports/report-links';
import { createReportsRepository } from './modules/reports/reports.repository';
import { createReportsService } from './modules/reports/reports.service';
import { createSendersRepository } from './modules/senders/senders.repository';
import { createSenderRule, createSendersService } from './modules/senders/senders.service';
import { createTeamsRepository } from './modules/teams/teams.repository';
import { createConversionsRepository } from './modules/conversions/conversions.repository';
import { createConversionsService } from './modules/conversions/conversions.service';
import { createShopConnectionsRepository } from './modules/conversions/shop-connections.repository';
import { createShopConnectionsService } from './modules/conversions/shop-connections.service';
import { createTeamsService } from './modules/teams/teams.service';
import { createSegmentsRepository } from './modules/segments/segments.repository';
import { createSegmentsService } from './modules/segments/segments.service';
import { createTemplatesRepository } from './modules/templates/templates.repository';
import { createTemplatesService } from './modules/templates/templates.service';
import { createTokensRepository } from './modules/tokens/tokens.repository';
import { createTokensService } from './modules/tokens/tokens.service';
import { createOwnerCache } from './modules/tokens/owner-cache';
import { createUsersRepository } from './modules/users/users.repository';
import { createUsersService } from './modules/users/users.service';
import { createVanityDomainsRepository } from './modules/vanity-domains/vanity-domains.repository';
import { createVanityDomainsService } from './modules/vanity-domains/vanity-domains.service';
import { createWebhooksRepository } from './modules/webhooks/webhooks.repository';
import { createWebhooksService } from './modules/webhooks/webhooks.service';
import { createConversationsRepository } from './modules/conversations/conversations.repository';
import { createConversationsService } from './modules/conversations/conversations.service';
import { createSmsConnectionsRepository } from './modules/sms-connections/sms-connections.repository';
import { ADAPTERS, createSmsConnectionsService } from './modules/sms-connections/sms-connections.service';
import { createSmsCallbacksRepository } from './modules/sms-callbacks/sms-callbacks.repository';
import { createSmsCallbacksService } from './modules/sms-callbacks/sms-callbacks.service';
import { createReceiptStore } from './engine/store/receipts';
import type { ProviderCallbackResult } from './observability/metrics';
import { createSmsRoutesRepository } from './modules/sms-routes/sms-routes.repository';
import { createSmsRoutesService } from './modules/sms-routes/sms-routes.service';
import { createEventDeliverer } from './modules/event-endpoints/event-deliverer';
import { createEventEndpointsRepository } from './modules/event-endpoints/event-endpoints.repository';
import { createEventEndpointsService } from './modules/event-endpoints/event-endpoints.service';
import { createEventOutbox } from './modules/event-endpoints/event-outbox';
import { createSignupPagesRepository } from './modules/signup-page/signup-page.repository';
import { createSignupPageService, type SignupResult } from './modules/signup-page/signup-page.service';
import { createFlowAdvance } from './modules/flows/flow-advance';
import { createFlowAnniversaries } from './modules/flows/flow-anniversaries';
import { createFlowSegmentEntries } from './modules/flows/flow-segment-entries';
import { createFlowWebhooks } from './modules/flows/flow-webhooks';
import { createFlowsRepository } from './modules/flows/flows.repository';
import { createFlowsService } from './modules/flows/flows.service';
import { isSuppressed, suppressionListOf } from './modules/suppressions/suppressions.sql';

/** The composition root: every repository and service, wired once for the HTTP app, the CLI and tests. */
export function createServices(
  database: Database,
  config: Config,
  options: {
    secretKey: Buffer;
    clock?: Clock;
    log?: (error: unknown) => void;
    logger?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
    /** The scrypt cost of new password hashes: production's (PASSWORD_COST) unless the test app passes a cheaper one. */
    passwordCost?: ScryptCost;
    /** Counts each provider callback (the app's metrics: herald_provider_callbacks_total). */
    observeProviderCallback?: (connection: string, result: ProviderCallbackResult) => void;
    /** Counts each post of a sign-up page (the app's metrics: herald_signup_posts_total). */
    observeSignup?: (result: SignupResult) => void;
  },
) {
  const { db } = database;
  const clock = options.clock ?? systemClock;
  const secrets = createSecretBox(options.secretKey);
  const passwords = createPasswords(options.passwordCost);
  const webhookCaller = createWebhookCaller({ allowPrivate: config.webhookAllowPrivate, timeoutMs: config.webhookTimeoutMs, now: () => clock.now() });
  const teamsRepository = createTeamsRepository(db, clock);
  const usersRepository = createUsersRepository(db, clock);
  const tokensRepository = createTokensRepository(db, clock);
  const auditRepository = createAuditRepository(db, clock);
  const audit = createAuditService({ audit: auditRepository, config });
  const auditTrail = createAuditTrail({ audit: auditRepository });

  // The suppression list (opt-outs): the one owner, which teams, inbound, imports, contacts, campaigns, reports and the directory call.
  const contactsRepository = createContactsRepository(db, clock);
  const suppressions = createSuppressions({ repository: createSuppressionsRepository(db, clock), contacts: contactsRepository, config });
  const teams = createTeamsService({ db, teams: teamsRepository, suppressions });
  /** The country a team's national numbers are read in: its own, else the installation's. */
  const countryOf = async (teamId: number) => (await teamsRepository.defaultCountryOf(teamId)) ?? config.defaultCountry;

  // Consent you can prove (docs/consent.md): the records and double opt-in requests every writer shares.
  const consentRepository = createConsentRepository();
  const optIns = createOptInRepository(db);
  const consent = createConsentService({
    db,
    consent: consentRepository,
    optIns,
    // Bound when called: the contact directory is made below.
    knows: (teamId, phoneNumber) => contactsDirectory.knows(teamId, phoneNumber),
    countryOf,
    clock,
    config,
  });
  const tokenOwners = createOwnerCache({ now: () => clock.now().getTime() });
  const users = createUsersService({
    db,
    passwords,
    users: usersRepository,
    teams: teamsRepository,
    teamsService: teams,
    tokens: tokensRepository,
    config,
    forgetTokenOwners: tokenOwners.forget,
  });
  const tokens = createTokensService({
    db,
    audit: auditTrail,
    tokens: tokensRepository,
    users: usersRepository,
    teams: teamsRepository,
    config,
    owners: tokenOwners,
    clock,
  });
  const limiter = createSharedRateLimiter(db, clock);
  const accountMail = createAccountMailRepository(db, clock);
  const auth = createAuthService({
    db,
    passwords,
    users: usersRepository,
    usersService: users,
    tokens,
    tokensRepository,
    resets: createPasswordResetsRepository(clock),
    loginFailures: createLoginFailuresRepository(clock),
    outbox: accountMail,
    limiter,
    audit: auditRepository,
    trail: auditTrail,
    clock,
    config,
    forgetTokenOwners: tokenOwners.forget,
    log: options.log ?? (() => {}),
  });
  const membersRepository = createMembersRepository(db, clock);
  const members = createMembersService({
    db,
    passwords,
    members: membersRepository,
    users: usersRepository,
    teams: teamsRepository,
    outbox: accountMail,
    audit: auditRepository,
    trail: auditTrail,
    clock,
    config,
    forgetTokenOwners: tokenOwners.forget,
  });
  const sendersRepository = createSendersRepository(db, clock);
  const senders = createSendersService({ db, senders: sendersRepository, audit: auditTrail, config });
  const senderRule = createSenderRule(sendersRepository);
  const vanityDomainsRepository = createVanityDomainsRepository(db, clock);
  const vanityDomains = createVanityDomainsService({ db, audit: auditTrail, vanityDomains: vanityDomainsRepository, config });
  const webhooksRepository = createWebhooksRepository(db, clock);
  const webhooks = createWebhooksService({ db, audit: auditTrail, webhooks: webhooksRepository, secrets, caller: webhookCaller, clock, config });
  // Event endpoints: the outbox the triggers fill, and one signed attempt of a delivery (the worker's and a test's).
  const eventOutbox = createEventOutbox({ db, clock, accountMail, publicUrl: config.publicUrl });
  const deliverEvent = createEventDeliverer({ outbox: eventOutbox, caller: webhookCaller, secrets, clock, retryBaseMs: config.eventRetryMs });
  const eventEndpoints = createEventEndpointsService({
    db,
    audit: auditTrail,
    endpoints: createEventEndpointsRepository(db, clock),
    outbox: eventOutbox,
    deliver: deliverEvent,
    secrets,
    clock,
    config,
  });
  const smsConnections = createSmsConnectionsService({
    db,
    audit: auditTrail,
    connections: createSmsConnectionsRepository(db, clock),
    secrets,
    clock,
    config,
  });
  const smsRoutesRepository = createSmsRoutesRepository(db, clock);
  const smsRoutes = createSmsRoutesService({ db, audit: auditTrail, routes: smsRoutesRepository });
  const contactGroupsRepository = createContactGroupsRepository(db, clock);
  const contactGroups = createContactGroupsService({ db, audit: auditTrail, contactGroups: contactGroupsRepository, suppressions, config });
  const contacts = createContactsService({
    db,
    audit: auditTrail,
    contacts: contactsRepository,
    recipients: createRecipientsRepository(db),
    contactGroups: contactGroupsRepository,
    suppressions,
    present: contactGroups.present,
    consent: optIns,
    clock,
    countryOf,
    config,
  });
  const imports = createImportsService({
    database,
    audit: auditTrail,
    imports: createImportsRepository(db, clock),
    contacts: contactsRepository,
    contactGroups: contactGroupsRepository,
    suppressions,
    clock,
    countryOf,
    config,
  });
  const keywordsRepository = createKeywordsRepository(db, clock);
  const keywords = createKeywordsService({
    db,
    audit: auditTrail,
    keywords: keywordsRepository,
    contactGroups: contactGroupsRepository,
    webhooks: webhooksRepository,
    config,
  });

  const segmentsRepository = createSegmentsRepository(db, clock);
  const segments = createSegmentsService({ db, audit: auditTrail, segments: segmentsRepository, teams: teamsRepository, config });

  const templatesRepository = createTemplatesRepository(db, clock);
  const linksRepository = createLinksRepository(db, clock);
  const links = createLinksService({
    db,
    audit: auditTrail,
    links: linksRepository,
    templates: templatesRepository,
    vanityDomains: vanityDomainsRepository,
    config,
  });
  const templates = createTemplatesService({
    db,
    audit: auditTrail,
    templates: templatesRepository,
    links: linksRepository,
    presentLink: links.present,
    vanityDomains: vanityDomainsRepository,
    urlBase: vanityDomains.urlBase,
    contactFields: contacts.fieldsOf,
    firstRecipient: contacts.firstRecipientOf,
    // Bound when called: the campaigns service is made below.
    audienceSegments: (auth, body, links, groupUuids) => campaigns.audienceSegments(auth, body, links, groupUuids),
    senderRule,
    config,
  });

  // The inbox: conversations are made and reopened by inbound messages, in the transaction that stores each.
  const conversationsRepository = createConversationsRepository(db);
  const conversations = createConversationsService({
    db,
    audit: auditTrail,
    conversations: conversationsRepository,
    suppressions,
    countryOf,
    knows: (teamId, phoneNumber) => contactsDirectory.knows(teamId, phoneNumber),
    clock,
    config,
  });
  // Flows: the API, the keyword trigger (in the inbound pipeline) and the advance of runs (on the job runner).
  const flows = createFlowsService({
    db,
    audit: auditTrail,
    flows: createFlowsRepository(db, clock),
    suppressions,
    secrets,
    countryOf,
    knows: (teamId, phoneNumber) => contactsDirectory.knows(teamId, phoneNumber),
    testNumbersOf: (teamId) => teamsRepository.testNumbersOf(teamId),
    clock,
    config,
  });
  const flowWebhooks = createFlowWebhooks({
    db,
    clock,
    caller: webhookCaller,
    secrets,
    // A call ends by WEBHOOK_TIMEOUT_MS: one a dead process was making is taken again soon after.
    leaseMs: config.webhookTimeoutMs * 2 + 5_000,
    onError: (error) => options.logger?.warn({ err: error }, 'a flow webhook could not be called'),
  });
  const flowAdvance = createFlowAdvance({
    db,
    clock,
    webhooks: flowWebhooks,
    suppressed: (teamId, phone) => isSuppressed(suppressionListOf(teamId), phone),
    config,
    urlBase: (domain) => vanityDomains.urlBase({ domain }),
  });
  const flowAnniversaries = createFlowAnniversaries({ db, clock, config });
  const flowSegmentEntries = createFlowSegmentEntries({ db, clock, config });

  const inbound = createInboundService({
    db,
    audit: auditTrail,
    inbound: createInboundRepository(db),
    conversations: conversationsRepository,
    keywords: keywordsRepository,
    contacts: contactsRepository,
    consent: { ...consentRepository, confirmationText },
    optIns,
    contactGroups: contactGroupsRepository,
    suppressions,
    teams: teamsRepository,
    webhooks,
    flows,
    clock,
    config,
  });
  // The providers' status and inbound callbacks: receipts through the engine's receipt store, messages through inbound.
  const smsCallbacks = createSmsCallbacksService({
    db,
    callbacks: createSmsCallbacksRepository(db),
    adapters: ADAPTERS,
    receipts: createReceiptStore(db),
    inbound,
    suppressions,
    contacts: contactsRepository,
    secrets,
    clock,
    config,
    observe: options.observeProviderCallback ?? (() => {}),
    onWebhookError: (error) => options.logger?.warn({ err: error }, 'a keyword webhook could not be called for an inbound message'),
  });

  const campaigns = createCampaignsService({
    db,
    audit: auditTrail,
    campaigns: createCampaignsRepository(db),
    templates: templatesRepository,
    contactGroups: contactGroupsRepository,
    segments: {
      idsByUuid: (teamId, uuids) => segmentsRepository.idsByUuid(teamId, uuids),
      countAudience: (teamId, audience) => segmentsRepository.countAudience(teamId, audience, config.appTimezone),
      audienceOf: (teamId, audience, fixedCampaignId) => segmentsRepository.audienceOf(teamId, audience, config.appTimezone, fixedCampaignId),
    },
    recipients: createRecipientsRepository(db),
    teams: teamsRepository,
    members: membersRepository,
    outbox: accountMail,
    review: createReviewRepository(db),
    routing: smsRoutesRepository,
    suppressions,
    users: usersRepository,
    linkSamples: (teamId, templateUuid) => templates.linkSamples(teamId, templateUuid),
    senderRule,
    clock,
    config,
    events: options.logger ? createCampaignEventLog({ db, log: options.logger, clock }) : undefined,
  });

  // The A/B tests' windows and decisions, run by the job runner (jobs/herald-jobs.ts).
  const abDecisions = createAbDecisions({ db, clock, audit: auditRepository, defaultZone: config.appTimezone });

  const trackedLinks = createTrackedLinks({ db, clock });

  const contactsDirectory = createContactsDirectoryService({
    db,
    audit: auditTrail,
    directory: createContactsDirectoryRepository(db, clock),
    suppressions,
    consent,
    flows,
    countryOf,
    clock,
    config,
  });

  const reportsRepository = createReportsRepository(db, config.appTimezone, optOutsOfCampaign);
  const reportLinks = createReportLinks({ secretKey: options.secretKey, publicUrl: config.publicUrl });
  const reports = createReportsService({
    db,
    audit: auditTrail,
    reports: reportsRepository,
    users: usersRepository,
    links: reportLinks,
    clock,
    config,
  });

  // Conversions: orders the API and the shops' webhooks report, credited to a campaign when recorded.
  const conversions = createConversionsService({
    db,
    audit: auditTrail,
    conversions: createConversionsRepository(db),
    countryOf,
    clock,
    config,
  });

  const shopConnections = createShopConnectionsService({
    db,
    audit: auditTrail,
    shops: createShopConnectionsRepository(db, clock),
    conversions,
    secrets,
    checkoutConsent: createCheckoutConsent({
      consent: { ...consentRepository, confirmationText },
      optIns,
      suppressions,
      lockGroup: contactsRepository.lockGroup,
      settingsOf: (teamId, tx) => teamsRepository.settingsOf(teamId, tx),
    }),
    countryOf,
    clock,
    config,
  });

  // The hosted sign-up page: its settings, and the public form's double opt-in requests.
  const signupPage = createSignupPageService({
    db,
    audit: auditTrail,
    pages: createSignupPagesRepository(db, clock),
    contactGroups: contactGroupsRepository,
    consent: consentRepository,
    suppressions,
    confirmationText,
    limiter,
    clock,
    secretKey: options.secretKey,
    config,
    observe: options.observeSignup,
  });

  const overview = createOverviewService({ overview: createOverviewRepository(db), clock, config });

  return {
    signupPage,
    conversions,
    shopConnections,
    overview,
    trackedLinks,
    reports,
    reportsRepository,
    reportLinks,
    campaigns,
    abDecisions,
    inbound,
    conversations,
    teams,
    users,
    tokens,
    tokenOwners,
    auth,
    limiter,
    accountMail,
    members,
    audit,
    auditRepository,
    auditTrail,
    senders,
    vanityDomains,
    webhooks,
    eventEndpoints,
    smsConnections,
    smsCallbacks,
    smsRoutes,
    eventOutbox,
    deliverEvent,
    keywords,
    templates,
    segments,
    links,
    contactGroups,
    contacts,
    imports,
    usersRepository,
    teamsRepository,
    suppressions,
    contactsDirectory,
    flows,
    flowAdvance,
    flowWebhooks,
    flowAnniversaries,
    flowSegmentEntries,
    consent,
    // The key sealing stored secrets (the router opens connections' credentials with it).
    secrets,
  };
}
export type Services = ReturnType<typeof createServices>;
