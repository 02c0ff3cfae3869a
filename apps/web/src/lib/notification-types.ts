export type NotificationVariant = 'success' | 'danger' | 'warning' | 'info' | 'primary' | 'secondary';

export interface NotificationOptions {
  title?: string;
  message: string;
  variant?: NotificationVariant;
  delay?: number;
}

export interface Notification {
  id: number;
  title?: string;
  message: string;
  variant: NotificationVariant;
  delay: number;
}
