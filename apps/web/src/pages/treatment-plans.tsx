import '../lib/zod-setup';

/** `/treatment-plans/follow-up` (issue 41; patients.read): accepted plans with work pending. */
export { PlanFollowUpPage } from '../features/treatment-plans/follow-up-page';
