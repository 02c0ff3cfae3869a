/** Spec §1: the come-back title is Spanish in every language and begins with the product's name. */
export const productName = 'Odontia';
export const comeBackTitle = 'Odontia · ¡Vuelve pronto, te esperamos!';

let visibleTitle = productName;

export function pageTitle(page?: string | null): string {
  return page ? `${productName} | ${page}` : productName;
}

/** Sets the tab title, or remembers it for when the tab is visible again. */
export function setDocumentTitle(title: string): void {
  visibleTitle = title;
  if (document.visibilityState !== 'hidden') document.title = title;
}

export function watchVisibilityTitle(): () => void {
  const onChange = () => {
    if (document.visibilityState === 'hidden') {
      if (document.title !== comeBackTitle) visibleTitle = document.title;
      document.title = comeBackTitle;
    } else {
      document.title = visibleTitle;
    }
  };
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}
