import type { SignInRequest } from '@odontia/shared/schemas/auth';
import type { PortalAccess, PortalAccessState, PortalMe } from '@odontia/shared/schemas/portal';
import type { Actor, RequestContext } from '../../context.ts';
import type { SystemTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken } from '../../lib/tokens.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { audit, recordAuditEvent } from '../audit/audit.repository.ts';
import type { PortalMailKind } from '../auth/auth.mail.ts';
import * as authRepository from '../auth/auth.repository.ts';
import {
  type AuthServiceDeps,
  type ClientContext,
  invitationTtlMs,
  refuseCommonPassword,
  resetTtlMs,
} from '../auth/auth-common.ts';
import { createAuthSteps } from '../auth/auth-steps.ts';
import { sessionFlow } from '../auth/sessions.service.ts';
import { findByIdNumberAndEmail } from '../patients/patients.repository.ts';
import * as repository from '../patients/portal-access.repository.ts';
import { insertMembership } from '../users/users.repository.ts';
import { findClinicBySlug, findClinicsByIds } from './portal.repository.ts';

/**
 * A patient's access to the portal (issue 37), over the sign-in of issue 19: a customer
 * membership (`users`, level customer, `patient_id`) of the person's login, opened by a one-time
 * link (`auth_tokens`, purpose 'portal': hashed, expiring, used once). The staff invite from the
 * patient's page (7 days); the patient may ask on the clinic's public page with their e-mail and
 * ID number (60 minutes). The link opens a session; a password, once set, opens the normal sign-in.
 */

type Membership = NonNullable<Awaited<ReturnType<typeof repository.findPortalMembership>>>;
type Patient = NonNullable<Awaited<ReturnType<typeof repository.findInvitablePatient>>>;
type ClinicAccount = NonNullable<Awaited<ReturnType<typeof repository.findClinicAccount>>>;

/**
 * The patient's customer membership, made (or reactivated) in the system context: the login of
 * the patient's e-mail is shared with any other clinic where the person signs in.
 */
async function ensureMembership(
  tx: SystemTx,
  { accountId, patient, account }: { accountId: string; patient: Patient; account: ClinicAccount },
): Promise<Membership> {
  const patientId = patient.id;
  let membership = await repository.findPortalMembership(tx, accountId, patientId);
  if (!membership) {
    if (!patient.email) throw new AppError('patient_email_required');
    const email = patient.email.toLowerCase();
    const existing = await authRepository.findLoginByEmail(tx, email);
    if (existing) {
      const memberships = await authRepository.findMemberships(tx, existing.id);
      // The address already enters this clinic as someone else: one membership per login and clinic.
      if (memberships.some((row) => row.account.id === accountId)) throw new AppError('portal_email_in_use');
    }
    const loginId = existing?.id ?? newId();
    if (!existing) await authRepository.insertLogin(tx, { id: loginId, email, passwordHash: null });
    membership = await insertMembership(tx, {
      accountId,
      id: newId(),
      loginId,
      completeName: `${patient.firstName} ${patient.lastName}`,
      email: existing?.email ?? email,
      level: 'customer',
      patientId,
      systemLanguage: patient.language,
      dateFormat: account.dateFormat,
      systemCurrency: account.systemCurrency,
    });
  } else if (!membership.active) {
    await repository.setMembershipActive(tx, accountId, membership.id, true);
    membership = { ...membership, active: true };
  }
  return membership;
}

/**
 * A demo patient's portal access with a password (issue 37, the demo clinic's seed): the same
 * membership an invitation makes, already activated, and the password set on its sign-in.
 */
export async function seedPortalAccess(
  tx: SystemTx,
  { accountId, patientId, passwordHash }: { accountId: string; patientId: string; passwordHash: string },
): Promise<void> {
  const account = await repository.findClinicAccount(tx, accountId);
  const patient = await repository.findInvitablePatient(tx, accountId, patientId);
  if (!account || !patient) throw new AppError('patient_not_found');
  const membership = await ensureMembership(tx, { accountId, patient, account });
  await authRepository.activateUser(tx, accountId, membership.id, new Date());
  await authRepository.setLoginPassword(tx, membership.loginId, passwordHash);
}

function stateOf(membership: Membership | undefined): PortalAccessState {
  if (!membership?.active) return 'none';
  return membership.activatedAt ? 'active' : 'invited';
}

export function createPortalAccessService(deps: AuthServiceDeps) {
  const { db, throttle } = deps;
  const steps = createAuthSteps(deps);
  const sessions = sessionFlow(deps, steps);

  async function describe(ctx: RequestContext, patientId: string): Promise<PortalAccess> {
    const patient = await repository.findInvitablePatient(ctx.tx, ctx.accountId, patientId);
    if (!patient) throw new AppError('patient_not_found');
    const membership = await repository.findPortalMembership(ctx.tx, ctx.accountId, patientId);
    const invitedAt = membership ? await repository.lastPortalLinkAt(ctx.tx, ctx.accountId, membership.id) : null;
    return {
      state: stateOf(membership),
      email: membership?.email ?? patient.email,
      invitedAt: invitedAt?.toISOString() ?? null,
      activatedAt: membership?.activatedAt?.toISOString() ?? null,
    };
  }

  /** The patient's membership (made or reactivated) and a new one-time link to it. */
  async function grant(
    accountId: string,
    patientId: string,
    purpose: { ttlMs: number; kind: PortalMailKind },
    by: { userId: string | null; ip: string },
  ) {
    return db.withSystem(async (tx) => {
      const account = await repository.findClinicAccount(tx, accountId);
      const patient = await repository.findInvitablePatient(tx, accountId, patientId);
      if (!patient || !account) throw new AppError('patient_not_found');
      const membership = await ensureMembership(tx, { accountId, patient, account });
      const token = await steps.issueToken(tx, { accountId, userId: membership.id }, 'portal', purpose.ttlMs);
      await recordAuditEvent(tx, {
        accountId,
        userId: by.userId,
        patientId,
        action: purpose.kind === 'portal_invitation' ? 'portal_access_invited' : 'portal_link_requested',
        entity: 'patient',
        entityId: patientId,
        ip: by.ip,
      });
      return {
        membership,
        token,
        clinicName: account.clinicName,
        clinicColor: account.brandColor,
        slug: account.publicSlug,
      };
    });
  }

  async function mailLink(kind: PortalMailKind, granted: Awaited<ReturnType<typeof grant>>) {
    await steps.sendMail({
      kind,
      // The portal web's page for the link (its slug names the clinic to show while it opens).
      path: `p/${granted.slug}/link/${granted.token}`,
      user: granted.membership,
      clinicName: granted.clinicName,
      clinicColor: granted.clinicColor,
    });
  }

  return {
    /** GET /api/patients/:patientId/portal-access */
    show: ({ ctx, patientId }: { ctx: RequestContext; patientId: string }) => describe(ctx, patientId),

    /** POST …/portal-access: a new link by e-mail (7 days), the membership made or reactivated. */
    async invite({ actor, patientId }: { actor: Actor; patientId: string }): Promise<PortalAccess> {
      // The patient must be visible to the staff member's clinic before anything crosses clinics.
      await inTransaction(db, actor, async (ctx) => {
        if (!(await repository.findInvitablePatient(ctx.tx, ctx.accountId, patientId)))
          throw new AppError('patient_not_found');
      });
      const granted = await grant(
        actor.accountId,
        patientId,
        { ttlMs: invitationTtlMs, kind: 'portal_invitation' },
        { userId: actor.userId, ip: actor.ip },
      );
      await mailLink('portal_invitation', granted);
      return inTransaction(db, actor, (ctx) => describe(ctx, patientId));
    },

    /** DELETE …/portal-access: the membership deactivated, its sessions ended and its links used up. */
    async revoke({ ctx, patientId }: { ctx: RequestContext; patientId: string }): Promise<PortalAccess> {
      const patient = await repository.findInvitablePatient(ctx.tx, ctx.accountId, patientId);
      if (!patient) throw new AppError('patient_not_found');
      if (await repository.endPortalAccess(ctx.tx, ctx.accountId, patientId))
        await audit(ctx, { action: 'portal_access_revoked', entity: 'patient', entityId: patientId, patientId });
      return describe(ctx, patientId);
    },

    /**
     * POST /api/public/clinics/:slug/portal-access: the same answer whether or not a patient
     * matched. Every request counts against the sign-in limits (per address and per e-mail); the
     * mail leaves after the answer, so its time tells nothing either.
     */
    async request(slug: string, input: { email: string; ssn: string }, context: ClientContext): Promise<void> {
      await throttle.attempt({ email: input.email, ip: context.ip });
      const match = await db.withSystem(async (tx) => {
        const clinic = await findClinicBySlug(tx, slug);
        if (!clinic) return undefined;
        const patient = await findByIdNumberAndEmail(tx, clinic.id, input.ssn, input.email);
        if (!patient) return undefined;
        // A revoked access stays revoked: only the clinic gives it back.
        const membership = await repository.findPortalMembership(tx, clinic.id, patient.id);
        if (membership && !membership.active) return undefined;
        return { accountId: clinic.id, patientId: patient.id };
      });
      if (!match) return;
      const send = async () => {
        const granted = await grant(
          match.accountId,
          match.patientId,
          { ttlMs: resetTtlMs, kind: 'portal_link' },
          { userId: null, ip: context.ip },
        );
        await mailLink('portal_link', granted);
      };
      void send().catch((err: unknown) => deps.log.error({ err }, 'could not send the portal link'));
    },

    /** POST /api/public/portal-links/:token: the link, once and unexpired, opens a customer session. */
    async signInWithLink(token: string, context: ClientContext) {
      return db.withSystem(async (tx) => {
        const found = await authRepository.findAuthToken(tx, hashToken(token), 'portal');
        if (!found) throw new AppError('invalid_token');
        // Claimed in this transaction: two uses at once, only one wins; an expired link wins none.
        if (!(await authRepository.claimAuthToken(tx, found.token.accountId, found.token.id)))
          throw new AppError('token_expired');
        if (!found.user.active) throw new AppError('user_inactive');
        if (!found.account.activatedAt) throw new AppError('account_not_activated');
        const membership = { user: found.user, account: found.account };
        const login = await authRepository.findLogin(tx, found.user.loginId);
        if (!login) throw new AppError('invalid_token');
        const memberships = await authRepository.findMemberships(tx, login.id);
        return steps.enter(tx, { login, membership, memberships, remember: false, context, action: 'sign_in' });
      });
    },

    /**
     * POST /api/public/portal-sign-in: the staff's sign-in (throttle, audit, the clinic last
     * entered) over the person's patient memberships only; 403 portal_access_none without one.
     */
    signIn: (input: SignInRequest, context: ClientContext) => sessions.signIn(input, context, 'portal'),

    /**
     * What GET /api/portal/me adds about the person (system context: their sign-in and their other
     * clinics are no one clinic's): whether the sign-in has a password, and the clinics whose portal
     * they may enter, by name, this session's marked. Never a staff membership.
     */
    async person(actor: Actor): Promise<Pick<PortalMe, 'signIn' | 'clinics'>> {
      return db.withSystem(async (tx) => {
        const login = await authRepository.findLoginOfUser(tx, actor.accountId, actor.userId);
        if (!login) throw new AppError('unauthorized');
        const memberships = authRepository.enterableOn('portal', await authRepository.findMemberships(tx, login.id));
        const clinics = await findClinicsByIds(
          tx,
          memberships.map((membership) => membership.account.id),
        );
        return {
          signIn: { email: login.email, hasPassword: login.passwordHash !== null },
          clinics: clinics.map(({ id, clinic }) => ({
            id,
            name: clinic.name,
            slug: clinic.slug,
            logoPath: clinic.brand.logoPath,
            current: id === actor.accountId,
          })),
        };
      });
    },

    /** PUT /api/portal/password: the first password of a sign-in that has none (the link proved the mailbox). */
    async setFirstPassword(actor: Actor, password: string, sessionId: string): Promise<void> {
      refuseCommonPassword(password);
      const passwordHash = await hashPassword(password);
      await db.withSystem(async (tx) => {
        const login = await authRepository.findLoginOfUser(tx, actor.accountId, actor.userId);
        if (!login) throw new AppError('unauthorized');
        if (login.passwordHash) throw new AppError('password_already_set');
        await steps.replacePassword(tx, {
          loginId: login.id,
          passwordHash,
          keepSessionId: sessionId,
          origin: { accountId: actor.accountId, userId: actor.userId, action: 'portal_password_set' },
          ip: actor.ip,
        });
      });
    },
  };
}

export type PortalAccessService = ReturnType<typeof createPortalAccessService>;
