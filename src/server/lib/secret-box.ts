import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Encrypts secrets at rest (AES-256-GCM); a sealed value is iv (12) | tag (16) | ciphertext. */
export type SecretBox = { seal(plain: string): Buffer; open(sealed: Buffer): string };

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes.');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The key: HERALD_SECRET_KEY (32 bytes, base64) when set — every process sharing a database needs
 * the same one — else DATA_DIR/secret.key, made on first use and readable by its owner only.
 */
export async function loadSecretKey(config: { secretKey: string | undefined; dataDir: string }): Promise<Buffer> {
  if (config.secretKey) {
    const key = Buffer.from(config.secretKey, 'base64');
    if (key.length !== 32) throw new Error('HERALD_SECRET_KEY must be 32 bytes in base64 (e.g. `openssl rand -base64 32`).');
    return key;
  }
  const file = path.join(config.dataDir, 'secret.key');
  const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (existing) return Buffer.from(existing.trim(), 'base64');
  await fs.mkdir(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    await fs.writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    // Another process wrote it first: use theirs.
    return Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
  }
}
