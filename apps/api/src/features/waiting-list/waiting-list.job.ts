import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { dateAndTime } from '../messages/message-texts.ts';
import { chooseChannel, clinicMessaging, consentsOf, logEmail, queueProviderMessage } from '../messages/outbox.ts';
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
      if (!details || details.entry.deletedAt !== null || details.entry.status !== 'waiting') return;
      // The clinic's channels in order, as its reminders (issue 38): WhatsApp or SMS carry the link too.
      const clinic = await clinicMessaging(ctx);
      const patient = { ...details, id: details.entry.patientId, language: languageOf(details.language) };
      const choice = chooseChannel(patient, clinic.reminderChannels, await consentsOf(ctx, patient.id), clinic);
      if (!choice) return; // No way to reach the patient now: the offer expires and the next one is asked.
      const token = newToken();
      const link = `${deps.publicUrl}waiting-list/offer/${token}`;
      await repository.setOffer(ctx, offerId, { status: 'sent', sentAt: new Date(), tokenHash: hashToken(token) });
      if (choice.channel === 'email') {
        const mail = offerMail({
          language: patient.language,
          to: choice.address,
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
          link,
          expiresAt: offer.expiresAt,
        });
        await logEmail(ctx, {
          patientId: patient.id,
          kind: 'waiting_list_offer',
          to: choice.address,
          language: patient.language,
          body: mail.text,
        });
        await deps.mailer.send(mail);
      } else {
        // An offer is worth only its hold: it leaves at once, quiet hours or not.
        await queueProviderMessage(ctx, {
          patientId: patient.id,
          kind: 'waiting_list_offer',
          channel: choice.channel,
          to: choice.address,
          language: patient.language,
          text: {
            kind: 'waiting_list_offer',
            values: {
              patient: details.firstName,
              clinic: details.clinicName,
              professional: details.professionalName,
              treatment: details.treatmentName,
              minutes: String(Math.max(1, Math.round((offer.expiresAt.getTime() - Date.now()) / 60_000))),
              link,
              ...dateAndTime(offer.startsAt, details.timeZone, patient.language),
            },
          },
        });
      }
      await auditEntry({ ...ctx, userId: null, ip: '' }, details.entry, 'waiting_list_offer_sent', {
        offerId,
        to: choice.address,
        channel: choice.channel,
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
