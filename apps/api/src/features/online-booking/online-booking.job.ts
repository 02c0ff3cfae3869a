import type { Mailer } from '../../lib/mail.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { appointmentMailOf, loadReminder } from '../reminders/reminder.job.ts';
import { bookedMail } from './online-booking.mail.ts';
import { findPatientAppointment } from './online-booking.repository.ts';

/**
 * The confirmation of an online booking (issue 37), sent from the job queue after the booking is
 * committed: nothing is sent for an appointment no longer scheduled or a patient without e-mail.
 */
export function onlineBookingMailHandler(deps: { mailer: Mailer }): JobHandler {
  return {
    async run(ctx, job) {
      const appointmentId = String(job.payload.appointmentId ?? job.key);
      const appointment = await loadReminder(ctx, appointmentId);
      if (!appointment || appointment.deletedAt !== null || appointment.status !== 'scheduled' || !appointment.email) {
        return;
      }
      const row = await findPatientAppointment(ctx, appointment.patientId, appointmentId);
      if (!row) return;
      await deps.mailer.send(
        bookedMail({
          ...appointmentMailOf(appointment, appointment.email),
          treatmentName: row.treatmentName,
          appointmentId,
          version: row.version,
        }),
      );
    },
  };
}
