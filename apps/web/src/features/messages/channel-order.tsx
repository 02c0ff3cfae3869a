import type { MessageChannel } from '@odontia/shared/schemas/messages';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SwitchField } from '../../components/switch-field';
import { moveChannel } from './message-words';

/** The reminder channels as the form holds them: every channel, the used ones on. */
export interface ChannelOrderValues {
  /** Every channel, in the order the clinic put them. */
  order: MessageChannel[];
  used: Set<MessageChannel>;
}

/**
 * An arrow that moves a channel one place. At the end of the list it stays focusable (a disabled
 * button would drop the keyboard's focus as the channel reaches the top) and does nothing.
 */
function MoveButton({
  icon: Icon,
  label,
  atEdge,
  onMove,
  testId,
}: {
  icon: typeof ArrowUp;
  label: string;
  atEdge: boolean;
  onMove: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className={`btn btn-sm btn-outline-secondary${atEdge ? ' opacity-50' : ''}`}
      aria-disabled={atEdge || undefined}
      title={label}
      aria-label={label}
      onClick={atEdge ? undefined : onMove}
      data-testid={testId}
    >
      <Icon size={16} aria-hidden="true" />
    </button>
  );
}

export function ChannelOrder<V extends ChannelOrderValues>({
  values,
  onChange,
}: {
  values: V;
  onChange: (next: V) => void;
}) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const used = values.order.filter((channel) => values.used.has(channel));
  // What a move did, said to a screen reader (the button keeps the focus).
  const [moved, setMoved] = useState('');
  const move = (channel: MessageChannel, step: -1 | 1) => {
    const order = moveChannel(values.order, channel, step);
    onChange({ ...values, order });
    setMoved(t('settings.order.moved', { channel: t(`channels.${channel}`), place: order.indexOf(channel) + 1 }));
  };
  return (
    <fieldset data-testid="reminder-channels">
      <legend className="form-label fs-6 mb-1">{t('settings.order.legend')}</legend>
      <p className="small text-body-secondary">{t('settings.order.hint')}</p>
      <ol className="list-group mb-0">
        {values.order.map((channel, index) => {
          const name = t(`channels.${channel}`);
          const on = values.used.has(channel);
          const place = used.indexOf(channel);
          return (
            <li
              key={channel}
              className="list-group-item d-flex align-items-center gap-2"
              data-testid="reminder-channel"
              data-channel={channel}
            >
              <SwitchField
                id={`${id}-${channel}`}
                label={name}
                className="mb-0 me-auto"
                input={{
                  checked: on,
                  onChange: (event) => {
                    const next = new Set(values.used);
                    if (event.target.checked) next.add(channel);
                    else next.delete(channel);
                    onChange({ ...values, used: next });
                  },
                }}
                testId={`reminder-channel-${channel}`}
              />
              <span className="small text-body-secondary text-nowrap">
                {on ? t('settings.order.place', { place: place + 1 }) : t('settings.order.off')}
              </span>
              <MoveButton
                icon={ArrowUp}
                label={t('settings.order.up', { channel: name })}
                atEdge={index === 0}
                onMove={() => move(channel, -1)}
                testId={`reminder-channel-up-${channel}`}
              />
              <MoveButton
                icon={ArrowDown}
                label={t('settings.order.down', { channel: name })}
                atEdge={index === values.order.length - 1}
                onMove={() => move(channel, 1)}
                testId={`reminder-channel-down-${channel}`}
              />
            </li>
          );
        })}
      </ol>
      <span className="visually-hidden" role="status">
        {moved}
      </span>
    </fieldset>
  );
}
