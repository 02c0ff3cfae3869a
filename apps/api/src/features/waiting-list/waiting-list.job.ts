import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { offerMail } from '../online-booking/online-booking.mail.ts';
import * as repository from './waiting-list.repository.ts';
import { auditEntry, offerFreedSlot } from './waiting-list.service.ts';

/**
 * The waiting list's jobs (issue 38). `waiting_list_offer` makes the offer's link and mails it,
 * once, in the job's transaction (a failed send leaves no token behind and the queue retries);
 * an offer no longer open (accepted elsewhere, gone, expired) is not sent. `waiting_list_next`
 * runs when a freed time's holds end: what is still free goes to the next entries.
 */
export function waitingListOfferHandler(deps: { mailer: Mailer; publicUrl: string }): JobHandler {
  return {
    async run(ctx, job) {
      const offerId = String(job.payload.offerId ?? job.key);
      const offer = await repository.lockOffer(ctx, { id: offerId });
      if (offer?.status !== 'offered' || offer.expiresAt.getTime() <= Date.now()) return;
      const details = await repository.offerDetails(ctx, offerId);
      if (!details?.email || details.entry.deletedAt !== null || details.entry.status !== 'waiting') return;
      const token = newToken();
      await repository.setOffer(ctx, offerId, { status: 'sent', sentAt: new Date(), tokenHash: hashToken(token) });
      await deps.mailer.send(
        offerMail({
          language: languageOf(details.language),
          to: details.email,
          firstName: details.firstName,
          sex: details.sex,
          clinicName: details.clinicName,
          clinicAddress: details.clinicAddress,
          clinicPhone: details.clinicPhone,
          clinicColor: details.brandColor,
          treatmentName: details.treatmentName,
          professionalName: details.professionalName,
          startsAt: offer.startsAt,
          endsAt: offer.endsAt,
          timeZone: details.timeZone,
          link: `${deps.publicUrl}waiting-list/offer/${token}`,
          expiresAt: offer.expiresAt,
        }),
      );
      await auditEntry({ ...ctx, userId: null, ip: '' }, details.entry, 'waiting_list_offer_sent', {
        offerId,
        to: details.email,
        attempts: job.attempts,
      });
    },
  };
}

export function waitingListNextHandler(): JobHandler {
  return {
    async run(ctx, job) {
      await offerFreedSlot(
        { ...ctx, userId: null, ip: '' },
        {
          professionalId: String(job.payload.professionalId),
          start: new Date(String(job.payload.startsAt)),
          end: new Date(String(job.payload.endsAt)),
        },
      );
    },
  };
}
