import { exportContact } from '../../api/gen/sdk.gen';

/** The file's name: the service's own (Content-Disposition), or the same name made here. */
export function contactExportFileName(phoneNumber: string, contentDisposition?: string | null): string {
  const named = /filename="([^"]+)"/.exec(contentDisposition ?? '')?.[1];
  return named ?? `contact-${phoneNumber.replace(/[^\d]/g, '')}.json`;
}

/**
 * Fetches everything the team holds about the number, through the API client with the session's
 * credentials (a token session's token would not ride on a plain link), and saves it as a JSON file
 * named after the number.
 */
export async function downloadContactData(phoneNumber: string): Promise<void> {
  const { data, response } = await exportContact({ path: { phone_number: phoneNumber }, throwOnError: true });
  // The service's answer as it came, indented: a person reads it, or hands it to the person it describes.
  const text = `${JSON.stringify(data, null, 2)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = contactExportFileName(phoneNumber, response.headers.get('content-disposition'));
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers still read the blob after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
