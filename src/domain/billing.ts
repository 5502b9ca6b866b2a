// What a key is billed for. Usage is stored per status class, so operators still see refusals,
// but only answers that carried data count against a subscription:
//   2xx       billed (the data was delivered)
//   3xx       not billed (a 304 tells a client its copy is current: revalidating is encouraged)
//   4xx, 5xx  not billed (refused or failed: 429 quota, 400 bad input, 404 unknown TFIN, 5xx ours)
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

export const BILLABLE_CLASSES: readonly StatusClass[] = ['2xx'];

export function statusClass(status: number): StatusClass {
  if (status < 300) return '2xx';
  if (status < 400) return '3xx';
  if (status < 500) return '4xx';
  return '5xx';
}
