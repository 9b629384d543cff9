/**
 * `demo:seed`: fills a team so a newcomer's dashboard has something to show — contact groups,
 * senders, templates with tracked links, a keyword, a campaign really sent yesterday (engine +
 * simulator, with failures and clicks) and campaigns still to come, a welcome flow on the keyword,
 * two conversations in the inbox (one answered, one unread) and an enabled sign-up page. Everything goes through the
 * services, so every rule of the API applies. Running it again reuses what exists (found by name)
 * and makes only what is missing: the demo campaign is sent, and clicked, once.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  AddContactsSchema,
  CampaignInputSchema,
  ContactGroupInputSchema,
  FlowInputSchema,
  KeywordInputSchema,
  LinkInputSchema,
  SenderInputSchema,
  SignupPageInputSchema,
  TemplateInputSchema,
  type Campaign,
  type ContactGroup,
} from '../../shared/contract';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { PageWindow } from '../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf } from '../db/rows';
import { createEngine } from '../engine/engine';
import type { EngineStore } from '../engine/engine-store';
import { createEngineStore } from '../engine/store/postgres-store';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { createSimulatorLedger } from '../gateways/sms/simulator-ledger';
import type { AuthContext } from '../http/auth';
import { ValidationError } from '../lib/errors';
import { formatTimestamp, parseTimestamp, systemClock, type Clock } from '../lib/time';
import { createTrackedLinks } from '../modules/links/tracked-links.service';
import type { Services } from '../services';

export const DEMO_DEFAULTS = { email: 'demo@herald.test', password: 'demo-password-1', team: 'Demo Shop' };
export const DEMO_CAMPAIGNS = { sent: 'Weekend sale', throttled: 'VIP early access', pending: 'New arrivals' } as const;
export const DEMO_FLOW = 'Welcome series';

export type DemoSeedDeps = { services: Services; db: Db; config: Pick<Config, 'appTimezone'>; clock?: Clock };

const FIRST_NAMES = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Mia',
  'Ivy',
  'Lily',
  'Freya',
  'Grace',
  'Sophia',
  'Noah',
  'Oliver',
  'George',
  'Arthur',
  'Leo',
  'Muhammad',
  'Harry',
  'Oscar',
  'Archie',
  'Henry',
  'Jack',
  'Theo',
  'Priya',
  'Aisha',
  'Siobhan',
  'Rhys',
  'Callum',
  'Niamh',
  'Tomasz',
  'Chloé',
];
const CITIES = ['London', 'Manchester', 'Birmingham', 'Leeds', 'Glasgow', 'Bristol', 'Liverpool', 'Edinburgh', 'Cardiff', 'Belfast', 'Newcastle', 'Brighton'];
const VISITORS = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.113 Mobile Safari/537.36',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
};
// Chat apps fetch a link to draw its preview as soon as the message lands; the clicks report flags them as bots.
const PREVIEW_BOTS = ['WhatsApp/2.24.10.79 A', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'];

const IdRowSchema = z.object({ id: z.number() });
const OpenRowSchema = z.object({ open: z.number() });
const DeliveredLinkRowSchema = z.object({ code: z.string(), delivered_at: MomentSchema });

/** A small seeded generator (mulberry32): the same demo on every run, so its figures are stable. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, pick };
}

const parsed = <S extends z.ZodType>(schema: S, input: z.input<S>): z.output<S> => {
  const result = schema.safeParse(input);
  if (!result.success) throw ValidationError.fromIssues(result.error.issues);
  return result.data;
};

/** Every item of a paged list (a demo team is small; any team is finite). */
async function everything<T>(page: (window: PageWindow) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const items: T[] = [];
  for (let offset = 0; ; offset += 100) {
    const result = await page({ limit: 100, offset });
    items.push(...result.items);
    if (result.items.length < 100 || items.length >= result.total) return items;
  }
}

/** `YYYY-MM-DD HH:MM:SS` in the zone, `days` after today there (`days` may be negative). */
function localTime(now: Date, zone: string, days: number, time: string): string {
  const [year, month, day] = formatTimestamp(now, zone).slice(0, 10).split('-').map(Number) as [number, number, number];
  return `${new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10)} ${time}`;
}

/** The user (made when missing) in the team (made when missing); a team of other people is not the demo's to fill. */
async function account(deps: DemoSeedDeps, input: typeof DEMO_DEFAULTS) {
  const { services } = deps;
  const teams = services.teamsRepository;
  const existingTeam = await teams.findByName(input.team.trim());
  let user = await services.usersRepository.findByEmail(input.email);
  const created = !user;
  if (existingTeam && !(user && (await teams.isMember(user.id, existingTeam.id))))
    throw ValidationError.field('team', `The team ${existingTeam.name} exists and ${input.email} is not in it; choose another --team.`);
  if (!user) {
    await services.users.create({ email: input.email, password: input.password, teamName: input.team });
    user = (await services.usersRepository.findByEmail(input.email))!;
  }
  const team = existingTeam ?? (await teams.findByName(input.team.trim())) ?? (await services.teams.create(input.team));
  if (!(await teams.isMember(user.id, team.id))) await services.users.addToTeam(user.email, team.name, 'admin');
  const auth: AuthContext = {
    userId: user.id,
    userUuid: user.uuid,
    teamId: team.id,
    teamUuid: team.uuid,
    userEmail: user.email,
    teamName: team.name,
    tokenName: 'demo seed',
    role: 'admin',
    tokenId: 0,
    tokenKind: 'personal',
    scope: 'full',
    // The services record each change they make in the audit log: the seed's are its own action.
    request: { operation: 'demoSeed', ip: null, recorded: 0 },
  };
  await services.usersRepository.setCurrentTeam(user.id, team.id); // the dashboard opens on the demo team
  return { auth, email: user.email, team: team.name, created };
}

/** Numbers of Ofcom's drama range (07700 900000–900999): they reach no one. */
function demoContacts(random: ReturnType<typeof seeded>) {
  const numbers = Array.from({ length: 1000 }, (_, i) => `07700 900${String(i).padStart(3, '0')}`);
  for (let i = numbers.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [numbers[i], numbers[j]] = [numbers[j]!, numbers[i]!];
  }
  const person = (phone_number: string, withCity: boolean) => ({
    phone_number,
    custom_fields: { first_name: random.pick(FIRST_NAMES), ...(withCity ? { city: random.pick(CITIES) } : {}) },
  });
  const vip = numbers.slice(0, 120);
  const newsletterOnly = numbers.slice(120, 310);
  return {
    vip: vip.map((n) => person(n, true)),
    // Half the VIPs read the newsletter too: the sent campaign reaches each of them once.
    newsletter: [...vip.slice(0, 60), ...newsletterOnly].map((n) => person(n, false)),
    staff: newsletterOnly.slice(0, 4).map((n) => person(n, false)),
    optouts: newsletterOnly.slice(4, 6).map((phone_number) => ({ phone_number })),
  };
}

/** Sends the campaign as the engine would have at its send time: the engine's clock is set back by the delay. */
async function sendInThePast(deps: DemoSeedDeps, campaign: Campaign, random: ReturnType<typeof seeded>, now: Date) {
  const { db } = deps;
  const campaignId = (await oneRowOf(db, IdRowSchema, sql`SELECT id FROM campaigns WHERE uuid = ${campaign.uuid}`)).id;
  const delay = now.getTime() - parseTimestamp(campaign.scheduled_send_date, deps.config.appTimezone)!.getTime();
  const realClock = deps.clock ?? systemClock;
  const clock: Clock = { now: () => new Date(realClock.now().getTime() - delay) };
  const store = createEngineStore(db);
  // Confined to the demo campaign: other campaigns and keyword replies wait for the real engine (whose
  // simulator would send their receipts). Starting and finishing stay shared: on this clock they only
  // touch campaigns due before the demo's send time, which a running engine would have started already.
  const demoOnly: EngineStore = {
    ...store,
    sending: async () => (await store.sending()).filter((sending) => Number(sending.id) === campaignId),
    claimReplies: async () => [],
    expire: async () => [],
  };
  const gateway = createSimulatorGateway({ latencyMs: 50, failureRate: 0.05, random: random.next, ledger: createSimulatorLedger(db) });
  const engine = createEngine({
    store: demoOnly,
    gateway,
    clock,
    options: { tickMs: 1000, batchSize: 500, rateLimitPerSecond: 1000, leaseMs: 30_000 },
    urlBase: (domain) => deps.services.vanityDomains.urlBase({ domain }),
  });
  const done = async () => {
    const row = await firstRowOf(
      db,
      OpenRowSchema,
      sql`
      SELECT (SELECT count(*) FROM messages WHERE campaign_id = c.id AND status IN ('queued', 'submitted'))::int AS open
        FROM campaigns c WHERE c.id = ${campaignId} AND c.status = 2`,
    );
    return row !== undefined && row.open === 0;
  };
  try {
    for (const deadline = Date.now() + 120_000; !(await done());) {
      if (Date.now() > deadline) throw new Error(`The demo campaign did not finish sending within 2 minutes.`);
      await engine.tick();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await engine.stop();
    await gateway.close();
  }
  return campaignId;
}

/** Clicks on the delivered messages' short links, through the redirect's own code path, at the times they would have come. */
async function clickSome(deps: DemoSeedDeps, campaignId: number, random: ReturnType<typeof seeded>, now: Date) {
  // No service lists a campaign's short links: read them directly.
  const rows = await rowsOf(
    deps.db,
    DeliveredLinkRowSchema,
    sql`
    SELECT s.code, m.finished_at AS delivered_at FROM short_links s JOIN messages m ON m.id = s.message_id
     WHERE m.campaign_id = ${campaignId} AND m.status = 'delivered' ORDER BY m.sequence`,
  );
  const minutes = (n: number) => n * 60_000;
  const clicks: Array<{ code: string; at: number; userAgent: string; ip: string }> = [];
  for (const { code, delivered_at } of rows) {
    const delivered = delivered_at.getTime();
    const ip = `203.0.113.${1 + Math.floor(random.next() * 254)}`; // TEST-NET-3: documentation addresses
    if (random.next() < 0.12) clicks.push({ code, at: delivered + 2_000 + random.next() * 20_000, userAgent: random.pick(PREVIEW_BOTS), ip: '198.51.100.7' });
    if (random.next() >= 0.4) continue;
    const device = random.next();
    const userAgent =
      device < 0.45 ? VISITORS.iphone : device < 0.7 ? VISITORS.android : device < 0.8 ? VISITORS.samsung : device < 0.92 ? VISITORS.desktop : VISITORS.mac;
    // Most people tap within the hour; some that evening; a few the next morning.
    const wait =
      random.next() < 0.6 ? minutes(1 + random.next() * 59) : random.next() < 0.75 ? minutes(60 + random.next() * 420) : minutes(480 + random.next() * 840);
    clicks.push({ code, at: delivered + wait, userAgent, ip });
    if (random.next() < 0.15) clicks.push({ code, at: delivered + wait + minutes(5 + random.next() * 180), userAgent, ip });
  }
  let at = now;
  const trackedLinks = createTrackedLinks({ db: deps.db, clock: { now: () => at } });
  // In time order: the clicks report numbers clicks as they come.
  for (const click of clicks.filter((c) => c.at < now.getTime() - 60_000).sort((a, b) => a.at - b.at)) {
    at = new Date(click.at);
    await trackedLinks.follow(click.code, { userAgent: click.userAgent, ip: click.ip });
  }
}

export async function seedDemo(deps: DemoSeedDeps, options: Partial<typeof DEMO_DEFAULTS> = {}) {
  const input = { ...DEMO_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) };
  const { services } = deps;
  const zone = deps.config.appTimezone;
  const now = (deps.clock ?? systemClock).now();
  const random = seeded(2024);
  const { auth, email, team, created } = await account(deps, input);

  const groups = await everything((window) => services.contactGroups.list(auth, window));
  const group = async (
    name: string,
    description: string,
    headers: string[],
    contacts: Array<{ phone_number: string; custom_fields?: Record<string, string> }>,
  ) => {
    let found: ContactGroup | undefined = groups.find((g) => g.name === name);
    found ??= await services.contactGroups.create(auth, parsed(ContactGroupInputSchema, { name, description, headers }));
    // Adding is an upsert by number; a group that has contacts is left as it is.
    if (found.number_of_contacts === 0) found = await services.contacts.add(auth, found.uuid, parsed(AddContactsSchema, { contacts }).contacts);
    return found;
  };
  const people = demoContacts(random);
  const vip = await group('VIP customers', 'Customers who spent over £500 in the last year.', ['first_name', 'city'], people.vip);
  const newsletter = await group('Newsletter', 'Signed up on the website or by texting JOIN.', ['first_name'], people.newsletter);
  const staff = await group('Staff phones', 'Our own phones: left out of customer campaigns.', ['first_name'], people.staff);
  const optouts = await group('default_optouts', '', [], people.optouts);

  const senders = await everything((window) => services.senders.list(auth, window));
  for (const sender of ['DemoShop', 'DemoOffers']) {
    if (!senders.some((s) => s.sender === sender)) await services.senders.create(auth, parsed(SenderInputSchema, { sender }));
  }

  const templates = await everything((window) => services.templates.list(auth, window));
  const ownDomain = (await everything((window) => services.vanityDomains.list(auth, window))).find((domain) => domain.is_default)!;
  const template = async (name: string, body: string, link: { name: string; destination: string }) => {
    const found =
      templates.find((t) => t.name === name) ?? (await services.templates.create(auth, parsed(TemplateInputSchema, { name, body, sender: 'DemoShop' })));
    if (!found.links.some((l) => l.name === link.name))
      await services.links.create(auth, parsed(LinkInputSchema, { template_uuid: found.uuid, vanity_domain_uuid: ownDomain.uuid, ...link }));
    return services.templates.show(auth, found.uuid);
  };
  const sale = await template(
    'Weekend sale',
    'Hi {{first_name}}, our weekend sale is on: 20% off everything until Sunday. Shop now: ::sale:: Reply STOP to opt out',
    {
      name: 'sale',
      destination: 'https://example.com/weekend-sale?utm_source=sms',
    },
  );
  const early = await template('VIP early access', 'Hi {{first_name}}, VIPs in {{city}} shop the new collection a day early: ::early:: Reply STOP to opt out', {
    name: 'early',
    destination: 'https://example.com/collection/early-access?utm_source=sms',
  });
  const arrivals = await template('New arrivals', 'New in at Demo Shop, {{first_name}}: ::new:: Reply STOP to opt out', {
    name: 'new',
    destination: 'https://example.com/new-in?utm_source=sms',
  });

  // Keywords are unique across the service: another team may hold JOIN already.
  const keywords = await everything((window) => services.keywords.list(auth, window));
  let keyword = keywords.find((k) => /^JOIN\d*$/i.test(k.keyword));
  for (let n = 1; !keyword; n++) {
    const body = {
      keyword: n === 1 ? 'JOIN' : `JOIN${n}`,
      message: 'Thanks for joining Demo Shop news! Reply STOP to opt out.',
      help: 'Adds the number to Newsletter.',
      add_contact_to_group: true,
      contact_groups_uuid: [newsletter.uuid],
    };
    keyword = await services.keywords.create(auth, parsed(KeywordInputSchema, body)).catch((error: unknown) => {
      if (n < 20 && error instanceof ValidationError && error.fields.keyword) return undefined;
      throw error;
    });
  }

  // A welcome series on the keyword: the first message at once, a reminder a day later to those who did not click.
  const welcome = await template('Welcome', 'Welcome to Demo Shop, {{first_name}}! Here is 10% off your first order: ::welcome:: Reply STOP to opt out', {
    name: 'welcome',
    destination: 'https://example.com/welcome?utm_source=sms',
  });
  const reminder = await template('Welcome reminder', 'Your 10% welcome code is still waiting, {{first_name}}: ::welcome:: Reply STOP to opt out', {
    name: 'welcome',
    destination: 'https://example.com/welcome?utm_source=sms&utm_content=reminder',
  });
  const flows = await everything((window) => services.flows.list(auth, window));
  const flow =
    flows.find((f) => f.name === DEMO_FLOW) ??
    (await services.flows.create(
      auth,
      parsed(FlowInputSchema, {
        name: DEMO_FLOW,
        trigger: { type: 'keyword', keyword_uuid: keyword.uuid },
        steps: [
          { type: 'send', template_uuid: welcome.uuid },
          { type: 'wait', minutes: 1440 },
          {
            type: 'branch',
            condition: { type: 'last_message', event: 'clicked' },
            then: [{ type: 'end' }],
            else: [{ type: 'send', template_uuid: reminder.uuid }],
          },
        ],
        enabled: true,
      }),
    ));

  // Two customers wrote back: one answered from the inbox, one waiting (unread). Made once.
  const conversations = await services.conversations.list(auth, {}, { limit: 1, offset: 0 });
  if (conversations.total === 0) {
    const [asking, waiting] = people.newsletter.slice(-2);
    await services.inbound.inject(auth, { from: asking!.phone_number, body: 'Do you ship to Ireland?' });
    await services.conversations.reply(auth, asking!.phone_number, 'Yes, we do! Delivery to Ireland takes 2–3 working days.');
    await services.inbound.inject(auth, { from: waiting!.phone_number, body: 'Can I change the delivery address on my order?' });
  }

  // The hosted sign-up page, on: its slug is unique across the service, so another team may hold demo-shop already.
  let page = await services.signupPage.show(auth).catch(() => undefined);
  for (let n = 1; !page; n++) {
    const body = {
      slug: n === 1 ? 'demo-shop' : `demo-shop-${n}`,
      enabled: true,
      heading: 'Texts from Demo Shop',
      consent_text: 'I agree to receive recurring marketing texts from Demo Shop at the number above.',
      frequency_text: 'Up to 4 msgs/week.',
      group_uuid: newsletter.uuid,
      ask_first_name: true,
    };
    page = await services.signupPage.save(auth, parsed(SignupPageInputSchema, body)).catch((error: unknown) => {
      if (n < 20 && error instanceof ValidationError && error.fields.slug) return undefined;
      throw error;
    });
  }

  const campaigns = await everything((window) => services.campaigns.list(auth, window));
  const campaign = async (name: string, body: Omit<z.input<typeof CampaignInputSchema>, 'name'>) =>
    campaigns.find((c) => c.name === name) ?? (await services.campaigns.create(auth, parsed(CampaignInputSchema, { name, ...body })));
  const common = { sender: 'DemoShop', excluded_contact_groups: [staff.uuid] };
  let sent = await campaign(DEMO_CAMPAIGNS.sent, {
    ...common,
    template_uuid: sale.uuid,
    included_contact_groups: [vip.uuid, newsletter.uuid],
    scheduled_send_date: localTime(now, zone, -1, '10:00:00'),
    expiry_date: localTime(now, zone, 1, '10:00:00'),
  });
  const alreadySent = sent.status === 2;
  if (!alreadySent) {
    const campaignId = await sendInThePast(deps, sent, random, now);
    if ((await services.campaigns.summary(auth, sent.uuid)).clicks === 0) await clickSome(deps, campaignId, random, now);
    sent = await services.campaigns.show(auth, sent.uuid);
  }
  const throttled = await campaign(DEMO_CAMPAIGNS.throttled, {
    ...common,
    template_uuid: early.uuid,
    included_contact_groups: [vip.uuid],
    throttled: true,
    scheduled_send_date: localTime(now, zone, 1, '09:00:00'),
    scheduled_finish_date: localTime(now, zone, 1, '17:00:00'),
    pauses: [{ start_at: localTime(now, zone, 1, '12:00:00'), end_at: localTime(now, zone, 1, '13:00:00') }],
    expiry_date: localTime(now, zone, 1, '20:00:00'),
  });
  const pending = await campaign(DEMO_CAMPAIGNS.pending, {
    ...common,
    template_uuid: arrivals.uuid,
    included_contact_groups: [newsletter.uuid],
    scheduled_send_date: localTime(now, zone, 3, '10:00:00'),
    expiry_date: localTime(now, zone, 4, '10:00:00'),
  });

  const { token } = await services.tokens.issue(auth.userId, 'personal', 'Demo seed');
  const summary = await services.campaigns.summary(auth, sent.uuid);
  return {
    email,
    ...(created ? { password: input.password } : {}),
    user_uuid: auth.userUuid,
    team,
    team_uuid: auth.teamUuid,
    token,
    already_seeded: alreadySent,
    contact_groups: [vip, newsletter, staff, optouts].map((g) => ({ uuid: g.uuid, name: g.name })),
    senders: ['DemoShop', 'DemoOffers'],
    templates: [sale, early, arrivals].map((t) => ({ uuid: t.uuid, name: t.name, links: t.links.map((l) => ({ uuid: l.uuid, name: l.name })) })),
    keyword: { uuid: keyword.uuid, keyword: keyword.keyword },
    flow: { uuid: flow.uuid, name: flow.name },
    signup_page: { slug: page.slug, enabled: page.enabled, urls: page.urls },
    campaigns: [sent, throttled, pending].map((c) => ({ uuid: c.uuid, name: c.name, status: c.status, scheduled_send_date: c.scheduled_send_date })),
    sent_summary: { recipients: summary.recipients, delivered: summary.delivered, failed: summary.failed, clicks: summary.clicks },
  };
}
export type DemoSeed = Awaited<ReturnType<typeof seedDemo>>;
