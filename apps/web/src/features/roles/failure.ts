import { serverDetail } from '../../shared/api/errors';

/** The catalogue text of the failed action, followed by the server's reason when it gave one. */
export function failureText(catalogue: string, error: unknown): string {
  const detail = serverDetail(error);
  return detail && detail !== catalogue ? `${catalogue} ${detail}` : catalogue;
}
