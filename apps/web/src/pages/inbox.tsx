/** `/inbox` (issue 38; patients.read, answers appointments.write): the patients' replies. */
export { InboxPage } from '../features/messages/inbox-page';
