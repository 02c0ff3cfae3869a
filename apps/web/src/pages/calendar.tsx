import '../lib/zod-setup';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import '../features/agenda/calendar.scss';
import { TitledPage } from '../components/page-title';
import { AgendaCalendar } from '../features/agenda/calendar-view';

/** `/calendar` (spec §2 "Calendar"; patients.read, writes appointments.write): the agenda. */
export const CalendarPage = () => <TitledPage page="calendar" screen={<AgendaCalendar />} />;
