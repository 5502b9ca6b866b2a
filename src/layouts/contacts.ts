// Sales and support contacts, from the build's environment (SALES_CONTACT, SUPPORT_CONTACT): an
// e-mail address, an https URL or a telephone number. Unset or blank → null, and pages show no
// contact at all: a contact is never invented.
export interface Contact {
  /** What the reader sees. */
  text: string;
  /** mailto:, https: or tel: link; null for plain text. */
  href: string | null;
}

export function parseContact(raw: string | undefined): Contact | null {
  const text = raw?.trim();
  if (!text) return null;
  if (/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(text)) return { text, href: `mailto:${text}` };
  if (/^https?:\/\/[^\s<>"]+$/i.test(text))
    return { text: text.replace(/^https?:\/\//i, ''), href: text };
  if (/^\+?[\d\s().-]{6,}$/.test(text)) return { text, href: `tel:${text.replace(/[^\d+]/g, '')}` };
  return { text, href: null };
}

export function contacts(env: Record<string, string | undefined> = process.env): {
  sales: Contact | null;
  support: Contact | null;
} {
  return {
    sales: parseContact(env['SALES_CONTACT']),
    support: parseContact(env['SUPPORT_CONTACT']),
  };
}
