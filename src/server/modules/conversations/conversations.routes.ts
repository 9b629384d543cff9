import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConversationListQuerySchema,
  ConversationMessageSchema,
  ConversationPhoneParamsSchema,
  ConversationReplyInputSchema,
  ConversationSchema,
  ConversationThreadSchema,
  ConversationUpdateSchema,
  dataOf,
  errorsOf,
  PageQuerySchema,
  pageOf,
  SavedReplyInputSchema,
  SavedReplyParamsSchema,
  SavedReplyPatchSchema,
  SavedReplySchema,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ConversationsService } from './conversations.service';

/** The inbox (docs/inbox.md): viewers read; editors and admins reply, assign, close, snooze and keep the saved replies. */
export const conversationsRoutes: FastifyPluginAsyncZod<{ conversations: ConversationsService; publicUrl: string }> = async (
  app,
  { conversations, publicUrl },
) => {
  const tags = ['Inbox'];

  app.get(
    '/conversations/',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listConversations',
        tags,
        summary: "The team's conversations, latest activity first",
        description:
          'Herald extension. One per number that sent the team a message or that a member wrote to. Filters: `status`, `assignee` (a member’s uuid, `me` or `none`), `unread`, `search`.',
        querystring: PageQuerySchema.extend(ConversationListQuerySchema.shape),
        response: { 200: pageOf(ConversationSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { page, per_page, ...filters } = request.query;
      const { items, total } = await conversations.list(callerOf(request), filters, pageWindow({ page, per_page }));
      return pageEnvelope(request, publicUrl, request.query, total, items, filters);
    },
  );

  app.get(
    '/conversations/:phone_number',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showConversation',
        tags,
        summary: 'A conversation: its messages, newest last, and its state',
        description:
          'Herald extension. `data`: every message to and from the number (its campaigns’ and test sends’, every message sent outside a campaign, what it sent), paged: page 1 holds the newest, each page oldest first. `conversation`: its state. Reading it marks it read for the whole team. 404 when the team holds nothing about the number.',
        params: ConversationPhoneParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: ConversationThreadSchema, ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total, conversation } = await conversations.thread(callerOf(request), request.params.phone_number, pageWindow(request.query));
      return { ...pageEnvelope(request, publicUrl, request.query, total, items), conversation };
    },
  );

  app.post(
    '/conversations/:phone_number/messages',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'replyToConversation',
        tags,
        summary: 'Reply to the number',
        description:
          "A one-off message, sent by the engine ahead of campaigns through the team's route; its `status` moves from queued to submitted, then delivered or undelivered with its receipt. 409 when the number opted out (nothing is queued).",
        params: ConversationPhoneParamsSchema,
        body: ConversationReplyInputSchema,
        response: { 201: dataOf(ConversationMessageSchema), ...errorsOf(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await conversations.reply(callerOf(request), request.params.phone_number, request.body.body) }),
  );

  app.put(
    '/conversations/:phone_number',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateConversation',
        tags,
        summary: 'Assign, close, reopen or snooze a conversation',
        description:
          'Any of `status`, `assignee_uuid` (a member of the team, else 422; null: no one) and `snoozed_until` (with `snoozed`, in the future). A message from the number reopens it.',
        params: ConversationPhoneParamsSchema,
        body: ConversationUpdateSchema,
        response: { 200: dataOf(ConversationSchema), ...errorsOf(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await conversations.update(callerOf(request), request.params.phone_number, request.body) }),
  );

  const savedTags = ['Saved replies'];

  app.get(
    '/saved-replies/',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listSavedReplies',
        tags: savedTags,
        summary: "The team's saved replies, by name",
        querystring: PageQuerySchema,
        response: { 200: pageOf(SavedReplySchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await conversations.savedReplies.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/saved-replies/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createSavedReply',
        tags: savedTags,
        summary: 'Save a reply',
        body: SavedReplyInputSchema,
        response: { 201: dataOf(SavedReplySchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await conversations.savedReplies.create(callerOf(request), request.body) }),
  );

  app.get(
    '/saved-replies/:saved_reply_uuid',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showSavedReply',
        tags: savedTags,
        summary: 'Show a saved reply',
        params: SavedReplyParamsSchema,
        response: { 200: dataOf(SavedReplySchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await conversations.savedReplies.show(callerOf(request), request.params.saved_reply_uuid) }),
  );

  app.put(
    '/saved-replies/:saved_reply_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateSavedReply',
        tags: savedTags,
        summary: 'Edit a saved reply',
        params: SavedReplyParamsSchema,
        body: SavedReplyPatchSchema,
        response: { 200: dataOf(SavedReplySchema), ...errorsOf(401, 403, 404, 422) },
      },
    },
    async (request) => ({ data: await conversations.savedReplies.update(callerOf(request), request.params.saved_reply_uuid, request.body) }),
  );

  app.delete(
    '/saved-replies/:saved_reply_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteSavedReply',
        tags: savedTags,
        summary: 'Delete a saved reply',
        params: SavedReplyParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await conversations.savedReplies.delete(callerOf(request), request.params.saved_reply_uuid);
      return reply.code(204).send(null);
    },
  );
};
