import * as z from 'zod/mini';
import { auditEventTypes } from './audit';
import { ErrorText } from './errors';
import { PROJECT_ID_PATTERN, WEBHOOK_ID_PATTERN } from './identifiers';
import { MAX_WEBHOOK_EVENTS, MAX_WEBHOOK_URL_LENGTH } from './limits';
import { environmentName, timestamp, typeError } from './schemas';

/**
 * What the routes of webhooks have in common: the project and webhook in the path, the event patterns a
 * webhook names, and a webhook and a delivery as the API answers them.
 */

/** The path parameters of a route about one webhook of a project. */
export const webhookParams = () =>
  z.object({
    projectId: z.string().check(z.regex(PROJECT_ID_PATTERN), z.describe('Id of a project')),
    webhookId: z.string().check(z.regex(WEBHOOK_ID_PATTERN), z.describe('Id of a webhook (`whk_` + 16 base62)')),
  });

/** The 404s of malformed path parameters: the same as an unknown project's or webhook's. */
export const WEBHOOK_PARAM_ERRORS = {
  projectId: ErrorText.projectNotFound,
  webhookId: ErrorText.webhookNotFound,
} as const;

/** The prefixes `prefix.*` may name: the part before the dot of every event type. */
const eventPrefixes = () => new Set(auditEventTypes.map((type) => type.slice(0, type.indexOf('.'))));

/** Whether a pattern names an audit event type, or `prefix.*` with a prefix of one. */
export const isEventPattern = (pattern: string): boolean =>
  pattern.endsWith('.*')
    ? eventPrefixes().has(pattern.slice(0, -2))
    : (auditEventTypes as readonly string[]).includes(pattern);

/** An event pattern: an audit event type (`secret.updated`) or every type under a prefix (`secret.*`). */
export const eventPattern = () =>
  z
    .string({ error: typeError('Give an event pattern', 'An event pattern is text') })
    .check(
      z.refine(
        isEventPattern,
        'Use an audit event type, such as secret.updated, or a prefix with .*, such as secret.*',
      ),
      z.describe('An audit event type, or `prefix.*` for every type under the prefix'),
    );

/** The body of a webhook's registration. */
export const newWebhookFields = () => ({
  url: z
    .string({ error: typeError('Give the URL to deliver to', 'A URL is text') })
    .check(
      z.maxLength(MAX_WEBHOOK_URL_LENGTH, `Use at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
      z.describe('Where to deliver: an https URL whose host resolves to public addresses only'),
    ),
  events: z
    .array(eventPattern(), { error: 'Give a list of event patterns' })
    .check(
      z.minLength(1, 'Give at least one event pattern'),
      z.maxLength(MAX_WEBHOOK_EVENTS, `Give at most ${MAX_WEBHOOK_EVENTS} event patterns`),
      z.describe('The events to deliver: audit event types or `prefix.*` patterns'),
    ),
  environments: z.optional(
    z
      .array(environmentName(), { error: 'Give a list of environment names' })
      .check(
        z.minLength(1, 'Give at least one environment, or leave environments out'),
        z.maxLength(MAX_WEBHOOK_EVENTS, `Give at most ${MAX_WEBHOOK_EVENTS} environments`),
        z.describe('Only events in these environments; without it, every event that matches'),
      ),
  ),
});

const webhookFields = () => ({
  id: z.string().check(z.describe('`whk_` + 16 base62')),
  url: z.string(),
  events: z.array(z.string()),
  environments: z.nullable(z.array(z.string())),
  createdAt: timestamp(),
});

const buildWebhook = () =>
  z
    .object(webhookFields())
    .check(z.meta({ id: 'Webhook' }), z.describe('A webhook of a project; never its signing secret'));
let webhookSchema: ReturnType<typeof buildWebhook> | undefined;

/** A webhook as listing answers it (the API document names it once). */
export const webhook = () => {
  webhookSchema ??= buildWebhook();
  return webhookSchema;
};

/** A webhook as its registration answers it: with its signing secret, this once. */
export const newWebhook = () =>
  z.object({
    ...webhookFields(),
    secret: z
      .string()
      .check(z.describe('The signing secret (`whsec_` + 32 base62): shown this once, keep it with the receiver')),
  });

/** What came of one delivery attempt. */
export const deliveryOutcomes = ['delivered', 'retrying', 'failed'] as const;

const buildDelivery = () =>
  z
    .object({
      time: timestamp(),
      eventId: z.string(),
      event: z.string().check(z.describe('The audit event type delivered')),
      attempt: z.int().check(z.describe('1 for the first attempt, up to 10')),
      statusCode: z.nullable(z.int().check(z.describe('The receiver’s status; null when it gave none'))),
      durationMs: z.int(),
      outcome: z.enum(deliveryOutcomes),
      error: z.nullable(
        z.string().check(z.describe('Why no status came: a timeout, a refused address, a connection error')),
      ),
    })
    .check(z.meta({ id: 'WebhookDelivery' }), z.describe('One attempt to deliver an event to a webhook'));
let deliverySchema: ReturnType<typeof buildDelivery> | undefined;

/** A delivery attempt as the deliveries list answers it. */
export const webhookDelivery = () => {
  deliverySchema ??= buildDelivery();
  return deliverySchema;
};
