import { apiRoute } from '../api-route.ts';
import { recordChangesPageSchema, recordChangesQuerySchema, recordParamsSchema } from '../schemas/records.ts';
import {
  waitingListContracts,
  waitingListOfferAnswerSchema,
  waitingListOfferLinkAnswerSchema,
  waitingListOfferLinkParamsSchema,
  waitingListOfferRequestSchema,
  waitingListOffersResponseSchema,
  waitingListPageSchema,
  waitingListQuerySchema,
} from '../schemas/waiting-list.ts';

/** /api/waiting-list (issue 38): the entries, their offers and a manual offer. */
export const waitingListRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/waiting-list',
    query: waitingListQuerySchema,
    answer: waitingListPageSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: '/waiting-list/:id',
    params: recordParamsSchema,
    answer: waitingListContracts.one,
  }),
  create: apiRoute({
    method: 'POST',
    path: '/waiting-list',
    body: waitingListContracts.create,
    answer: waitingListContracts.one,
    status: 201,
  }),
  update: apiRoute({
    method: 'PUT',
    path: '/waiting-list/:id',
    params: recordParamsSchema,
    body: waitingListContracts.update,
    answer: waitingListContracts.one,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: '/waiting-list/:id',
    params: recordParamsSchema,
    answer: waitingListContracts.deleted,
  }),
  changes: apiRoute({
    method: 'GET',
    path: '/waiting-list/:id/changes',
    params: recordParamsSchema,
    query: recordChangesQuerySchema,
    answer: recordChangesPageSchema,
  }),
  offers: apiRoute({
    method: 'GET',
    path: '/waiting-list/:id/offers',
    params: recordParamsSchema,
    answer: waitingListOffersResponseSchema,
  }),
  offer: apiRoute({
    method: 'POST',
    path: '/waiting-list/:id/offers',
    params: recordParamsSchema,
    body: waitingListOfferRequestSchema,
    answer: waitingListOfferAnswerSchema,
    status: 201,
  }),
};

/** The offer's e-mail link (issue 38): public, the token in the path is the key. */
export const waitingListOfferLinkRoutes = {
  show: apiRoute({
    method: 'GET',
    path: '/public/waiting-list-offers/:token',
    params: waitingListOfferLinkParamsSchema,
    answer: waitingListOfferLinkAnswerSchema,
  }),
  accept: apiRoute({
    method: 'POST',
    path: '/public/waiting-list-offers/:token',
    params: waitingListOfferLinkParamsSchema,
    answer: waitingListOfferLinkAnswerSchema,
  }),
};
