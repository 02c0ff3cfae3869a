import type { UserLevel } from '@odontia/shared/enums';
import type { TenantTx } from './db/tenancy.ts';

/**
 * The request context (docs/adding-a-domain.md): who asks, for which clinic, from where, and the
 * request's transaction. `plugins/routes.ts` builds it once per request; services receive it as
 * `ctx` and pass it to repositories, which take only the part they use (the picks below).
 */

/** Who asks and for which clinic: what every service needs to apply the rules and to audit. */
export interface Actor {
  readonly accountId: string;
  readonly userId: string;
  readonly level: UserLevel;
  /** The clinic's IANA time zone: its "today" is `clinicToday(timeZone)`. */
  readonly timeZone: string;
  readonly ip: string;
  /**
   * A customer's own patient (issue 37): set exactly for a customer session, whose transaction
   * then runs as that patient (row-level security shows no other patient's rows).
   */
  readonly patientId?: string | null;
  /**
   * The API token the request came with (issue 42): its transaction names it
   * (`app.api_token_id`), so every audit event it writes records the token as the actor.
   */
  readonly apiTokenId?: string | null;
}

/** The actor and the request's transaction in the clinic's context (RLS shows that clinic only). */
export interface RequestContext extends Actor {
  readonly tx: TenantTx;
}

/** What a service's step on one record takes: the request's context, the record's id and the step's input. */
export type RecordStep<TInput, TContext = RequestContext> = { ctx: TContext; id: string; input: TInput };

/** The clinic's transaction: what a read or a write that records no author needs. */
export type TxContext = Pick<RequestContext, 'tx' | 'accountId'>;

/** The clinic's transaction and the user who writes (a ledger entry, a row's author). */
export type WriterContext = Pick<RequestContext, 'tx' | 'accountId' | 'userId'>;

/** The clinic's transaction, the user and where from: what an audited write needs. */
export type AuditedContext = Pick<RequestContext, 'tx' | 'accountId' | 'userId' | 'ip'>;
