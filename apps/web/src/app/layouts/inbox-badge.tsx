import { can } from '@odontia/shared/permissions';
import type { messageRoutes } from '@odontia/shared/routes/messages';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addressClient } from '../../lib/api-client';
import { useSessionUser } from '../../session/session';

/** The inbox's count by address only: the layout does not load the messages' contracts. */
const inboxApi = addressClient<Pick<typeof messageRoutes, 'inbox'>>({ inbox: ['GET', '/inbox'] });

/** Under the messages' cache key (features/messages/api.ts), so answering or filing a reply counts again. */
export const openInboxCountKey = ['messaging', 'inbox', 'count'] as const;

/**
 * Beside the sidebar's "Bandeja de mensajes": how many replies wait for the front desk (issue 38),
 * read again every minute without counting as the user's activity; nothing while there are none.
 */
export function InboxBadge() {
  const { t } = useTranslation('layout');
  const user = useSessionUser();
  const enabled = user ? can(user.level, 'patients.read') : false;
  const count = useQuery({
    queryKey: openInboxCountKey,
    queryFn: () =>
      inboxApi.inbox({ query: { state: 'open', page: 1, pageSize: 1 }, background: true }).then((page) => page.open),
    enabled,
    refetchInterval: 60_000,
    retry: false,
  });
  const open = count.data ?? 0;
  if (open <= 0) return null;
  return (
    <span className="badge rounded-pill text-bg-danger menu-badge" data-testid="inbox-badge">
      {open > 99 ? '99+' : open}
      <span className="visually-hidden"> {t('menu.inboxOpen', { count: open })}</span>
    </span>
  );
}
