import '../lib/zod-setup';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import '../features/agenda/calendar.scss';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { AgendaCalendar } from '../features/agenda/calendar-view';

/** `/calendar` (spec §2 "Calendar"; patients.read, writes appointments.write): the agenda. */
export function CalendarPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.calendar')} />
      <AgendaCalendar />
    </>
  );
}
