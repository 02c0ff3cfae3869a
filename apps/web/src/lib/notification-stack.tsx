import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import type { Notification } from './notification-types';

/** Loaded on the first notification, so react-bootstrap's Toast stays out of the start-up bundle. */
export default function NotificationStack({
  items,
  onClose,
}: {
  items: Notification[];
  onClose: (id: number) => void;
}) {
  return (
    <ToastContainer position="bottom-end" className="p-3 notification-container" containerPosition="fixed">
      {items.map((item) => (
        <Toast
          key={item.id}
          bg={item.variant}
          autohide
          delay={item.delay}
          onClose={() => onClose(item.id)}
          className="notification-toast"
          data-testid="notification"
          role="status"
        >
          {item.title ? (
            <Toast.Header closeButton>
              <strong className="me-auto">{item.title}</strong>
            </Toast.Header>
          ) : null}
          <Toast.Body className={item.variant === 'warning' ? 'text-dark' : 'text-white'}>{item.message}</Toast.Body>
        </Toast>
      ))}
    </ToastContainer>
  );
}
