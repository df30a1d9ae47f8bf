import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Encrypts secrets at rest. The shell injects Electron's safeStorage; the headless host uses a key file. */
export interface SecretCipher {
  /** Why secrets cannot be stored right now, or null when they can. */
  unavailableReason(): string | null;
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

export class VaultUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultUnavailableError';
  }
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * AES-256-GCM with a random 256-bit key kept in a file only the user can read (0600). The sealed form is
 * version (1 byte) · iv (12) · tag (16) · ciphertext; a flipped bit anywhere fails authentication.
 */
export function createKeyFileCipher(keyFile: string): SecretCipher {
  const key = loadOrCreateKey(keyFile);
  return {
    unavailableReason: () => null,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) {
        throw new VaultUnavailableError('a stored secret is not in a format this version can read');
      }
      const iv = sealed.subarray(1, 1 + IV_BYTES);
      const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([
          decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new VaultUnavailableError(
          'a stored secret could not be decrypted (the key file changed or the data is damaged)',
        );
      }
    },
  };
}

function loadOrCreateKey(keyFile: string): Buffer {
  if (existsSync(keyFile)) {
    const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    if (key.length !== KEY_BYTES) throw new VaultUnavailableError(`the vault key file ${keyFile} is damaged`);
    chmodSync(keyFile, 0o600);
    return key;
  }
  mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  writeFileSync(keyFile, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** The part of Electron's safeStorage the vault uses, so this file needs no Electron import. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
  getSelectedStorageBackend?(): string;
}

/**
 * Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet). On Linux, the `basic_text` backend means a
 * hard-coded key: the vault refuses to store anything rather than pretend to protect it.
 */
export function createSafeStorageCipher(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform,
): SecretCipher {
  const unavailableReason = (): string | null => {
    if (!safeStorage.isEncryptionAvailable()) {
      return 'The system keychain is not available, so Deputy cannot store secrets safely. Unlock or install a keyring and try again.';
    }
    if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
      return 'No secret service (GNOME Keyring or KWallet) is running, so secrets would be stored with a fixed key. Start a keyring and try again.';
    }
    return null;
  };
  return {
    unavailableReason,
    encrypt(plain) {
      const reason = unavailableReason();
      if (reason) throw new VaultUnavailableError(reason);
      return safeStorage.encryptString(plain);
    },
    decrypt(sealed) {
      const reason = unavailableReason();
      if (reason) throw new VaultUnavailableError(reason);
      return safeStorage.decryptString(sealed);
    },
  };
}
