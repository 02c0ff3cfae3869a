import { LinkPage } from '../components/page-title';
import { SigningLinkScreen } from '../features/signing/signing-link';

/** The mailed link to sign a consent or a budget (issue 37). */
export const SigningLinkPage = () => (
  <LinkPage page="signingLink" screen={(token) => <SigningLinkScreen key={token} token={token} />} />
);
