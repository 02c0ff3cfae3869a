import { LinkPage } from '../components/page-title';
import { OptOutLinkScreen } from '../features/messages/opt-out-link';

/** The e-mail's "no more e-mails" link (issue 38). */
export const MessageOptOutPage = () => (
  <LinkPage page="messageOptOut" screen={(token) => <OptOutLinkScreen key={token} token={token} />} />
);
