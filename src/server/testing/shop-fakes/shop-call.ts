import { createHmac } from 'node:crypto';
import http from 'node:http';

/** What a shop's webhook call got back. */
export type ShopCallAnswer = { status: number; body: string };

/** The base64 HMAC-SHA256 of `body` with `secret`: the signature both Shopify and WooCommerce send. */
export const hmacBase64 = (body: Buffer | string, secret: string) => createHmac('sha256', secret).update(body).digest('base64');

/** One POST over a real socket, as a shop's webhook sender makes it: the exact bytes given, the headers given. */
export function postRaw(url: string, body: Buffer, headers: Record<string, string>): Promise<ShopCallAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
